// Decisions §19 on the command line: `files metrics` of a transcript uploaded on its own answers
// the figures of its cues (it was a 409 before), marks the voice's figures not measured and says
// why (no audio), as a table and as CSV.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { start } from '../../client/test/real-service.ts';
import type { Service } from '../../client/test/real-service.ts';
import { TWO_NAMES_VTT as VTT } from '../../server/src/files/files.fixtures.testkit.ts';

const BIN = fileURLToPath(new URL('../bin/rapport.js', import.meta.url));

function rapport(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}


let service: Service;
let dir: string;
before(async () => {
  service = await start();
  dir = await mkdtemp(join(tmpdir(), 'rapport-cli-vtt-'));
});
after(async () => {
  await service.close();
  await rm(dir, { recursive: true, force: true });
});

test('files metrics of a transcript on its own: its cues\' figures, the voice not measured (no audio)', async () => {
  const env = { RAPPORT_API_KEY: service.apiKey, RAPPORT_BASE_URL: service.url };
  const file = join(dir, 'trip.vtt');
  await writeFile(file, VTT);
  const up = await rapport(['upload', file, '--json'], env);
  assert.equal(up.code, 0, up.stderr);
  const [media] = JSON.parse(up.stdout) as { id: string; kind: string }[];
  assert.equal(media?.kind, 'transcript');
  const id = media?.id ?? '';

  const table = await rapport(['files', 'metrics', id], env);
  assert.equal(table.code, 0, table.stderr);
  assert.match(table.stdout, /^\s+Ana\s+Ben$/m);
  assert.match(table.stdout, /^speech \(s\)\s+8\.0\s+8\.9$/m);
  assert.match(table.stdout, /^pitch median \(Hz\)\s+-\s+-$/m);
  assert.match(table.stdout, /^not measured \(no audio\): pitch, loudness and syllable rates$/m);

  const csv = await rapport(['files', 'metrics', id, '--csv'], env);
  assert.equal(csv.code, 0, csv.stderr);
  const rows = csv.stdout.trimEnd().split('\n');
  assert.equal(rows.length, 3);
  assert.match(rows[1] ?? '', new RegExp(`^${id},Ana,0,ent_[A-Za-z0-9]+,8,`));

  const json = await rapport(['files', 'metrics', id, '--json'], env);
  assert.equal((JSON.parse(json.stdout) as { notMeasured: { reason: string } }).notMeasured.reason, 'no audio');
});
