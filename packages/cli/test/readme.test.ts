// The README's SDK and command-line examples, run exactly as written (the code blocks are read
// from README.md) against a fresh service, in a folder holding `conversation.wav`.
//
// The service analyses with ANALYSIS_SCHEDULING=normal (real-service.ts, as every test of a real
// service does). Under the default, `idle`, its analysis processes run under SCHED_IDLE and get a
// core only when no normal thread wants one: while other
// work kept the test host's cores busy (the test file run beside this one, another job on the
// host), the example's job waited in preparing_media for an analysis that hardly ran, and the
// example was killed at the 180 s limit (with a normal-priority busy loop on the test's one core:
// killed at 180 s, the analysis done some 330 s in; unloaded, the example takes 2 s). How
// analyses are scheduled is analysis-process.test.ts's subject, not this file's. A run that
// reaches the limit is reported as such, with what it printed.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { start, twoVoiceWav } from '../../client/test/real-service.ts';
import type { Service } from '../../client/test/real-service.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

function blocks(markdown: string, lang: string): string[] {
  const section = markdown.split(/^## /m).find((s) => s.startsWith('SDK and command line'));
  assert.ok(section, 'README.md has the "SDK and command line" section');
  return [...section.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1] ?? '');
}

/** How long one example may run (the media's analysis included). */
const LIMIT_MS = 180_000;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the command; a run killed at LIMIT_MS, or by a signal, fails here, naming it and showing
 * its output: its exit status would otherwise read as the example's own failure (1 is also what
 * a failed job exits with).
 */
function run(file: string, args: string[], cwd: string, env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    execFile(file, args, { cwd, env, timeout: LIMIT_MS }, (err, stdout, stderr) => {
      if (err && typeof err.code !== 'number') {
        const why = err.killed ? `ran past ${LIMIT_MS / 1000} s and was killed (${err.signal})` : `ended by ${err.signal ?? err.message}`;
        reject(new Error(`${[file, ...args].join(' ')}: ${why} after ${((Date.now() - started) / 1000).toFixed(1)} s\nstdout:\n${stdout}\nstderr:\n${stderr}`));
        return;
      }
      resolve({ code: err ? (err.code as number) : 0, stdout, stderr });
    });
  });
}

let service: Service;
let dir: string;
let env: Record<string, string>;

before(async () => {
  service = await start();
  dir = await mkdtemp(join(tmpdir(), 'rapport-readme-'));
  await writeFile(join(dir, 'conversation.wav'), twoVoiceWav());
  // The folder resolves @rapport/* and `npx rapport` through the repository's node_modules.
  await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  env = {
    PATH: `${join(ROOT, 'node_modules', '.bin')}:${process.env.PATH ?? ''}`,
    HOME: process.env.HOME ?? dir,
    RAPPORT_API_KEY: service.apiKey,
    RAPPORT_BASE_URL: service.url,
  };
});
after(async () => {
  await service.close();
  await rm(dir, { recursive: true, force: true });
});

/** Success prints the Markdown (a `# ` title); a job the engine cannot finish must fail as documented. */
function assertOutcome(r: Run, failedJob: RegExp, failedCode: number): void {
  if (r.code === 0) {
    assert.match(r.stdout, /^# \S/m, 'the result Markdown is printed');
    assert.match(r.stdout, /^ent_\w+ /m, 'the entities are listed');
  } else {
    assert.equal(r.code, failedCode, r.stderr);
    assert.match(r.stderr, failedJob);
  }
}

/**
 * PATH as a user's shell has it: the machine's own Node and npm first (this machine's may be
 * Node 20), not the project's node_modules/.bin that npm scripts put in front.
 */
function machinePath(): string {
  return (process.env.PATH ?? '').split(':').filter((p) => p && !p.includes('node_modules')).join(':');
}

test('the README SDK example runs as written, with the command the README gives, on the machine\'s Node', async () => {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  const [code] = blocks(readme, 'ts');
  assert.ok(code, 'a ts block');
  assert.ok(code.trim().split('\n').length <= 10, 'ten lines at most');
  await writeFile(join(dir, 'example.ts'), code);
  const command = /`(npx node [^`]*example\.ts)`/.exec(readme)?.[1];
  assert.ok(command, 'the README says how to run example.ts');
  const r = await run('bash', ['-euo', 'pipefail', '-c', command], dir, { ...env, PATH: machinePath() });
  assertOutcome(r, /JobFailedError/, 1);
  assert.match(r.stderr, /\d+ \/ \d+ bytes/, 'upload progress was reported');
});

test('the README says how to receive webhooks locally, and the machine\'s Node is allowed by the engines field', async () => {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  const quick = readme.split(/^## /m).find((s) => s.startsWith('Quick start')) ?? '';
  assert.match(quick, /WEBHOOK_ALLOW_PRIVATE=true npm start/);
  const engines = (JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
  assert.equal(engines, '>=20', 'npm install warns nothing about the project itself on Node 20');
});

test('the README command-line example runs as written', async () => {
  const [script] = blocks(await readFile(join(ROOT, 'README.md'), 'utf8'), 'sh');
  assert.ok(script, 'a sh block');
  assert.equal(script.trim().split('\n').length, 3, 'three lines');
  const r = await run('bash', ['-euo', 'pipefail', '-c', script], dir, { ...env, PATH: machinePath() });
  assertOutcome(r, /failed: \w+/, 5);
});
