// The `rapport` binary as users run it: a child process of packages/cli/bin/rapport.js under this
// Node, against a real service started in this process. Covers the whole flow from upload to
// Markdown (or the documented failure), --json output, plain output when piped, exit codes, and
// the admin words reaching the server package.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DatabaseSync } from 'node:sqlite';
import { closedPort, start, twoVoiceVtt, twoVoiceWav } from '../../client/test/real-service.ts';
import type { Service } from '../../client/test/real-service.ts';

const BIN = fileURLToPath(new URL('../bin/rapport.js', import.meta.url));

interface Run { code: number; stdout: string; stderr: string }

function rapport(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 120_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

let service: Service;
let dir: string;
let env: Record<string, string>;
let wav: string;
let mediaId: string;

before(async () => {
  service = await start();
  dir = await mkdtemp(join(tmpdir(), 'rapport-cli-'));
  env = { RAPPORT_API_KEY: service.apiKey, RAPPORT_BASE_URL: service.url };
  wav = join(dir, 'conversation.wav');
  await writeFile(wav, twoVoiceWav());
  await writeFile(join(dir, 'conversation.vtt'), twoVoiceVtt());
});
after(async () => {
  await service.close();
  await rm(dir, { recursive: true, force: true });
});

describe('rapport, the command line', () => {
  test('upload --json, then a transcript attached with --media-id -q', async () => {
    const up = await rapport(['upload', wav, '--label', 'Weekly call', '--json'], env);
    assert.equal(up.code, 0, up.stderr);
    const [media] = JSON.parse(up.stdout) as { id: string; kind: string; label: string }[];
    assert.ok(media);
    assert.equal(media.kind, 'audio');
    assert.equal(media.label, 'Weekly call');
    mediaId = media.id;
    // Analysis runs off the API's event loop, so it may be running now; attaching a transcript to a
    // running analysis is a documented 409: wait until it has ended (minutes on a loaded 2-core host).
    for (const until = Date.now() + 300_000; Date.now() < until; ) {
      const res = await fetch(`${service.url}/v1/files/${mediaId}`, { headers: { 'service-api-key': service.apiKey } });
      const status = ((await res.json()) as { analysis: { status: string } }).analysis.status;
      if (status === 'ready' || status === 'failed') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const vtt = await rapport(['upload', join(dir, 'conversation.vtt'), '--media-id', mediaId, '-q'], env);
    assert.equal(vtt.code, 0, vtt.stderr);
    assert.equal(vtt.stdout, `${mediaId}\n`);
    assert.equal(vtt.stderr, '', 'no progress bar when not on a terminal');
  });

  test('upload of a file already uploaded: says so, prints the existing id, exits 0 (decisions §18)', async () => {
    const again = await rapport(['upload', wav, '--label', 'Another name'], env);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stderr, new RegExp(`^conversation\\.wav was already uploaded as ${mediaId}: nothing stored, analysed or charged`, 'm'));
    assert.match(again.stdout, new RegExp(`^${mediaId}\\s+audio\\s+Weekly call`, 'm'), 'the existing media, named by its label');
    const quiet = await rapport(['upload', wav, '-q'], env);
    assert.deepEqual([quiet.code, quiet.stdout, quiet.stderr], [0, `${mediaId}\n`, '']);
    const json = await rapport(['upload', wav, '--json'], env);
    assert.equal(json.code, 0, json.stderr);
    const [media] = JSON.parse(json.stdout) as { id: string; duplicate: boolean; label: string }[];
    assert.deepEqual([media?.id, media?.duplicate, media?.label], [mediaId, true, 'Weekly call']);
  });

  test('files list names a media by its label; entities get names each appearance\'s recording (issue 40 item 7)', async () => {
    const list = await rapport(['files', 'list'], env);
    assert.equal(list.code, 0, list.stderr);
    const row = list.stdout.split('\n').find((l) => l.includes(mediaId));
    assert.ok(row?.includes('Weekly call'), `the label, as the dashboard shows it: ${row ?? list.stdout}`);
    assert.ok(!row?.includes('conversation.wav'), 'not the filename');
    const media = await (await fetch(`${service.url}/v1/files/${mediaId}`, { headers: { 'service-api-key': service.apiKey } })).json() as { analysis: { speakers: { entityId: string | null }[] } };
    const entityId = media.analysis.speakers.find((sp) => sp.entityId)?.entityId;
    if (!entityId) return; // an analysis that failed on a loaded host links nobody; the list above still holds
    const get = await rapport(['entities', 'get', entityId], env);
    assert.equal(get.code, 0, get.stderr);
    const app = get.stdout.split('\n').find((l) => l.includes(mediaId));
    assert.match(app ?? '', /Weekly call · \d+:\d\d\.\d · \d{4}-\d\d-\d\d \d\d:\d\d UTC/, `the recording beside its id: ${get.stdout}`);
  });

  test('match --wait prints the Markdown (or exits 5 with the job error); result reads it back', async () => {
    const m = await rapport(['match', '--target', `media:${mediaId}:index=0`, '--group', `media:${mediaId}:index=1`, '--fallback-dominant', '--wait'], env);
    assert.ok(!(m.stdout + m.stderr).includes('\u001b['), 'no colours when piped');
    const jobId = /job_[A-Za-z0-9]+/.exec(m.stderr)?.[0];
    assert.ok(jobId, m.stderr);
    const job = JSON.parse((await rapport(['jobs', 'get', jobId, '--json'], env)).stdout) as { status: string; resultId: string | null; error: { code: string } | null };
    if (job.status === 'succeeded') {
      assert.equal(m.code, 0, m.stderr);
      const json = await rapport(['result', jobId, '--json'], env);
      assert.equal(json.code, 0);
      const payload = JSON.parse(json.stdout) as { id: string; markdown: string; output: { template: string } };
      assert.equal(payload.output.template, 'matching');
      assert.equal(m.stdout.trim(), payload.markdown.trim(), 'match --wait printed the result Markdown');
      const byId = await rapport(['result', payload.id], env);
      assert.equal(byId.stdout.trim(), payload.markdown.trim());
      const html = await rapport(['result', jobId, '--html'], env);
      assert.equal(html.code, 0, html.stderr);
      assert.match(html.stdout, /^<!doctype html>\n<html lang="en">/);
      assert.match(html.stdout, /<figure class="illustration illustration-connection">/);
    } else {
      assert.equal(job.status, 'failed');
      assert.equal(m.code, 5, 'a failed job exits 5');
      assert.match(m.stderr, new RegExp(`failed: ${job.error?.code}`));
      assert.equal((await rapport(['result', jobId], env)).code, 5);
    }
    const watch = await rapport(['jobs', 'watch', jobId, '--json'], env);
    const events = watch.stdout.trim().split('\n').map((l) => JSON.parse(l) as { event: string; job: { status: string } });
    assert.equal(events.at(-1)?.job.status, job.status);
    assert.equal(watch.code, job.status === 'succeeded' ? 0 : 5);
  });

  test('report --wait --json gives the profile payload (or exits 5)', async () => {
    const r = await rapport(['report', '--target', `media:${mediaId}`, '--wait', '--json'], env);
    if (r.code === 0) {
      const payload = JSON.parse(r.stdout) as { context: string; output: { template: string } };
      assert.equal(payload.context, 'behavioral_profile');
      assert.equal(payload.output.template, 'report');
    } else {
      assert.equal(r.code, 5, r.stderr);
    }
  });

  test('files diarization --format rttm|vtt|srt|json and metrics --csv, for a media and an entity', async () => {
    let media: { analysis: { status: string; speakers: { entityId: string | null; label: string | null }[] } } | undefined;
    for (let i = 0; i < 300 && media?.analysis.status !== 'ready'; i++) {
      media = JSON.parse((await rapport(['files', 'get', mediaId, '--json'], env)).stdout) as typeof media;
      if (media?.analysis.status === 'failed') return assert.fail('the analysis failed');
      if (media?.analysis.status !== 'ready') await new Promise((r) => setTimeout(r, 200));
    }
    const json = JSON.parse((await rapport(['files', 'diarization', mediaId], env)).stdout) as { segments: { speaker: number; start: number }[] };
    assert.ok(json.segments.length > 0);
    const rttm = await rapport(['files', 'diarization', mediaId, '--format', 'rttm'], env);
    assert.equal(rttm.code, 0, rttm.stderr);
    const lines = rttm.stdout.trimEnd().split('\n');
    assert.equal(lines.length, json.segments.length);
    // Decisions §17: the display name in every export (the transcript's names here, else "Speaker N" from 1).
    const name = (i: number) => (media?.analysis.speakers[i]?.label ?? `Speaker ${i + 1}`).replace(/\s+/g, '_');
    assert.deepEqual(lines.map((l) => l.split(' ')[7]), json.segments.map((s) => name(s.speaker)));
    const vtt = await rapport(['files', 'diarization', mediaId, '--format', 'vtt'], env);
    assert.match(vtt.stdout, /^WEBVTT\n\n1\n/);
    const srt = await rapport(['files', 'diarization', mediaId, '--format', 'srt'], env);
    assert.match(srt.stdout, new RegExp(`^1\\n\\d\\d:\\d\\d:\\d\\d,\\d{3} --> \\d\\d:\\d\\d:\\d\\d,\\d{3}\\n${media?.analysis.speakers[json.segments[0]?.speaker ?? 0]?.label ?? 'Speaker \\d'}`));
    assert.equal((await rapport(['files', 'diarization', mediaId, '--format', 'textgrid'], env)).code, 2, 'a usage error');

    const csv = await rapport(['files', 'metrics', mediaId, '--csv'], env);
    assert.equal(csv.code, 0, csv.stderr);
    const rows = csv.stdout.trimEnd().split('\n');
    assert.equal(rows.length, 1 + (media?.analysis.speakers.length ?? 0));
    assert.match(rows[0] ?? '', /^media,speaker,speaker index \(from 0\),entity,speech \(s\),talk share \(%\),/);
    assert.match(rows[0] ?? '', /pitch median \(Hz\)/);
    assert.match(rows[1] ?? '', new RegExp(`^${mediaId},[^,]+,0,`));
    const table = await rapport(['files', 'metrics', mediaId], env);
    assert.match(table.stdout, /^pitch median \(Hz\)\s+\d/m);
    const entityId = media?.analysis.speakers[0]?.entityId;
    assert.ok(entityId);
    const ecsv = await rapport(['entities', 'metrics', entityId, '--csv'], env);
    assert.equal(ecsv.code, 0, ecsv.stderr);
    assert.match(ecsv.stdout.split('\n')[1] ?? '', new RegExp(`^${entityId},[^,]*,all,,\\d`));
    assert.match(ecsv.stdout.split('\n')[2] ?? '', new RegExp(`^${entityId},[^,]*,${mediaId},0,`));
  });

  test('a job that fails exits 5 and names the error', async () => {
    const r = await rapport(['match', '--target', `media:${mediaId}:index=9`, '--group', `media:${mediaId}`, '--wait', '--json'], env);
    assert.equal(r.code, 5, r.stderr);
    const err = JSON.parse(r.stderr.trim().split('\n').at(-1) ?? '{}') as { error: { code: string; jobId: string } };
    assert.equal(err.error.code, 'target_not_found');
    assert.match(err.error.jobId, /^job_/);
  });

  test('entities, credits and webhook deliveries with --json', async () => {
    const list = await rapport(['entities', 'list', '--json'], env);
    assert.equal(list.code, 0, list.stderr);
    const entities = JSON.parse(list.stdout) as { id: string }[];
    if (entities[0]) {
      const labelled = JSON.parse((await rapport(['entities', 'label', entities[0].id, 'Ann', '--json'], env)).stdout) as { label: string };
      assert.equal(labelled.label, 'Ann');
      const tagged = JSON.parse((await rapport(['entities', 'tag', entities[0].id, 'vip', 'team', '--json'], env)).stdout) as { tags: string[] };
      assert.deepEqual([...tagged.tags].sort(), ['team', 'vip']);
      const plain = await rapport(['entities', 'list', '--tag', 'vip'], env);
      assert.match(plain.stdout, new RegExp(`^${entities[0].id}\\s+Ann`));
    }
    const credits = JSON.parse((await rapport(['credits', '--json'], env)).stdout) as { balance: number; available: number };
    assert.equal(typeof credits.available, 'number');
    const deliveries = await rapport(['webhooks', 'deliveries', '--json'], env);
    assert.equal(deliveries.code, 0, deliveries.stderr);
    assert.ok(Array.isArray(JSON.parse(deliveries.stdout)));
  });

  test('upload --speakers, files reanalyze ID with new hints, --all for what an older engine analysed, bad hints exit 2', async () => {
    // Other bytes than the first test's: the same file again would be its media (decisions §18).
    const other = join(dir, 'another.wav');
    await writeFile(other, twoVoiceWav(25));
    const up = await rapport(['upload', other, '--speakers', '2', '--json'], env);
    assert.equal(up.code, 0, up.stderr);
    const [media] = JSON.parse(up.stdout) as { id: string; analysis: { speakerHints: unknown } }[];
    assert.deepEqual(media?.analysis.speakerHints, { numSpeakers: 2 });
    const id = media!.id;
    const settle = async () => {
      for (const until = Date.now() + 300_000; Date.now() < until; ) {
        const m = JSON.parse((await rapport(['files', 'get', id, '--json'], env)).stdout) as { analysis: { status: string; engineVersion: string | null } };
        if (m.analysis.status === 'ready' || m.analysis.status === 'failed') return m;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('analysis did not end');
    };
    assert.equal((await settle()).analysis.status, 'ready');
    // files get names speakers from 1, as every human-facing text does (decisions §17): by their
    // person's label where the voice was linked to a labelled one (this workspace's earlier
    // uploads hold the same synthetic voices, and an earlier test labelled one "Ann"), else "Speaker N".
    const shown = await rapport(['files', 'get', id], env);
    const lines = shown.stdout.split('\n').filter((l) => l.startsWith('  '));
    assert.equal(lines.length, 2, shown.stdout);
    for (const [k, line] of lines.entries()) assert.match(line, new RegExp(`^ {2}(Speaker ${k + 1}|Ann|Bob)\\s`), shown.stdout);
    assert.doesNotMatch(shown.stdout, /speaker 0/i);

    // A hint the speech cannot meet: the analysis says so, and files get prints it (decisions §15).
    const many = await rapport(['files', 'reanalyze', id, '--speakers', '20', '--json'], env);
    assert.equal(many.code, 0, many.stderr);
    const warned = await settle() as unknown as { analysis: { speakers: unknown[]; warnings: { code: string; found: number }[] } };
    if (warned.analysis.speakers.length !== 20) {
      assert.deepEqual(warned.analysis.warnings.map((w) => [w.code, w.found]), [['hint_not_met', warned.analysis.speakers.length]]);
      assert.match((await rapport(['files', 'get', id], env)).stdout, /^warning \(hint_not_met\): exactly 20 speakers were asked for/m);
    }

    const re = await rapport(['files', 'reanalyze', id, '--min-speakers', '1', '--max-speakers', '3', '--json'], env);
    assert.equal(re.code, 0, re.stderr);
    const answer = JSON.parse(re.stdout) as { reanalyzing: { id: string; analysis: { status: string; speakerHints: unknown } }[]; refused: unknown[] };
    assert.deepEqual(answer.reanalyzing.map((m) => [m.id, m.analysis.status, m.analysis.speakerHints]), [[id, 'pending', { minSpeakers: 1, maxSpeakers: 3 }]]);
    assert.deepEqual(answer.refused, []);
    const current = (await settle()).analysis.engineVersion;
    assert.ok(current);

    // Make this media look analysed by an older engine, as a store left by an earlier version would.
    const db = new DatabaseSync(join(service.dataDir, 'rapport.db'));
    db.exec('PRAGMA busy_timeout = 5000');
    db.prepare("UPDATE media SET engine_version = '2020.01.01-1' WHERE id = ?").run(id);
    db.close();
    const outdated = await rapport(['files', 'list', '--outdated', '--json'], env);
    assert.deepEqual((JSON.parse(outdated.stdout) as { id: string }[]).map((m) => m.id), [id]);
    const all = await rapport(['files', 'reanalyze', '--all'], env);
    assert.equal(all.code, 0, all.stderr);
    assert.match(all.stdout, new RegExp(`^${id}\\s+audio\\s.*pending`, 'm'));
    const after = await settle();
    assert.equal(after.analysis.engineVersion, current);
    const none = await rapport(['files', 'reanalyze', '--all'], env);
    assert.equal(none.code, 0, none.stderr);
    assert.match(none.stdout, /nothing to do/);

    const bad = await Promise.all([
      rapport(['upload', wav, '--speakers', '2', '--min-speakers', '1'], env),
      rapport(['files', 'reanalyze', id, '--speakers', '21'], env),
      rapport(['files', 'reanalyze', id, '--speakers', 'two'], env),
      rapport(['files', 'reanalyze'], env),
      rapport(['files', 'reanalyze', id, '--all'], env),
      rapport(['files', 'reanalyze', id, '--clear-hints', '--speakers', '2'], env),
    ]);
    for (const r of bad) assert.equal(r.code, 2, r.stderr);
    assert.match(bad[0]!.stderr, /\/minSpeakers: cannot be combined with numSpeakers/);
    assert.match(bad[1]!.stderr, /\/numSpeakers: must be/);
  });

  test('exit codes: usage 2, auth 3, not found 4, unreachable 6', async () => {
    const picture = join(dir, 'picture.png');
    await writeFile(picture, Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex'));
    const usage = [
      ['match', '--target', 'med_123', '--group', 'entity:e'],
      ['match', '--group', 'entity:e'],
      ['upload'],
      ['frobnicate'],
      ['credits', '--bogus-flag'],
      ['entities', 'tag', 'ent_1'],
    ];
    // Independent processes: run them side by side.
    const [refused, unsupported, noKey, badKey, missing, unreachable, ...usageRuns] = await Promise.all([
      rapport(['match', '--target', 'entity:ent_nope0000000000000000', '--group', 'entity:ent_nope0000000000000001', '--json'], env),
      rapport(['upload', picture, '--json'], env),
      rapport(['credits'], { RAPPORT_BASE_URL: service.url }),
      rapport(['credits', '--api-key', 'rk_wrong'], { RAPPORT_BASE_URL: service.url }),
      rapport(['files', 'get', 'med_doesnotexist000000000000', '--json'], env),
      rapport(['credits', '--base-url', `http://127.0.0.1:${await closedPort()}`, '--api-key', 'k']),
      ...usage.map((args) => rapport(args, env)),
    ]);
    usageRuns.forEach((r, i) => {
      assert.equal(r.code, 2, `${usage[i]?.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, /^error: /);
    });
    assert.equal(refused?.code, 2, 'input the API refuses (400) is a usage error');
    assert.equal((JSON.parse(refused?.stderr ?? '') as { error: { code: string } }).error.code, 'REFERENCE_NOT_FOUND');
    assert.equal(unsupported?.code, 2, `an upload refused as no supported format (415) is input refused: ${unsupported?.stderr ?? ''}`);
    assert.equal((JSON.parse(unsupported?.stderr ?? '') as { error: { status: number } }).error.status, 415);
    assert.equal(noKey?.code, 3, 'no key');
    assert.equal(badKey?.code, 3, 'bad key');
    assert.equal(missing?.code, 4);
    assert.equal((JSON.parse(missing?.stderr ?? '') as { error: { status: number } }).error.status, 404);
    assert.equal(unreachable?.code, 6);
  });

  test('on a terminal: a progress bar redrawn in place while uploading', async (t) => {
    // `script` (util-linux) gives the child a pseudo-terminal; without it there is no TTY to test.
    const probe = await new Promise<boolean>((resolve) => execFile('script', ['--version'], (err) => resolve(!err)));
    if (!probe) return t.skip('no `script` command to provide a terminal');
    const command = [process.execPath, BIN, 'upload', wav].join(' ');
    const r = await new Promise<Run>((resolve) =>
      execFile('script', ['-qec', command, '/dev/null'], { env: { PATH: process.env.PATH ?? '', TERM: 'xterm', ...env }, timeout: 60_000 }, (err, stdout, stderr) =>
        resolve({ code: err ? 1 : 0, stdout, stderr })));
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /conversation\.wav \[#+-*\] +\d+%/, 'a progress bar was drawn');
    assert.ok(r.stdout.includes('\r\u001b[2K'), 'redrawn in place');
    assert.match(r.stdout, /med_\w+\s+audio\s+\S/);
  });

  test('--help lists the commands and exits 0; admin words reach the server package', async () => {
    const help = await rapport(['--help']);
    assert.equal(help.code, 0);
    for (const word of ['upload FILE', 'match --target', 'jobs watch ID', 'result ID', 'entities list', 'webhooks redeliver', 'Exit codes', 'workspace limits --workspace ID', 'migrate-store --from', '415 not a supported format']) assert.ok(help.stdout.includes(word), word);
    assert.equal((await rapport(['match', '--help'])).code, 0);
    const created = await rapport(['workspace', 'create', 'cli-test'], { DATA_DIR: join(dir, 'store'), LOG_LEVEL: 'silent' });
    assert.equal(created.code, 0, created.stderr);
    const ws = JSON.parse(created.stdout) as { workspaceId: string; apiKey: string; signingSecret: string };
    assert.match(ws.apiKey, /^rk_/);
    assert.match(ws.signingSecret, /^whsec_/);
    const grant = await rapport(['credits', 'grant', '--workspace', ws.workspaceId, '5'], { DATA_DIR: join(dir, 'store'), LOG_LEVEL: 'silent' });
    assert.equal(grant.code, 0, grant.stderr);
  });
});
