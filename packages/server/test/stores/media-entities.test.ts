// The store suite, part 2 (one suite, two backends): media and their analysis, entities,
// results and feedback, workspaces and their keys and secrets, and webhook deliveries.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BACKENDS, newWorkspace, postgresMissing, type OpenedTestStores } from '../store-backends.ts';
import { generateApiKey, generateSigningSecret } from '../../src/workspace/workspace.store.ts';
import { newId } from '../../src/ids.ts';
import type { Stores } from '../../src/compose/stores.ts';
import type { MediaAnalysis } from '@rapport/analysis';
import type { AttemptOutcome } from '../../src/webhooks/deliver.ts';

const pgSkip = await postgresMissing();

function media(ws: string, durationSec = 90) {
  const id = newId('med');
  return {
    id, workspaceId: ws, kind: 'audio' as const, filename: 'a.wav', contentType: 'audio/wav', sizeBytes: 10, sha256: '0'.repeat(64),
    durationSec, label: null, storagePath: `/tmp/${id}`, transcript: null, analysisStatus: 'pending' as const,
  };
}

function analysis(durationSec: number, speakers: number): MediaAnalysis {
  return {
    version: 1, engineVersion: 'test-1', durationSec, turns: [], transcript: null,
    segments: Array.from({ length: speakers }, (_, i) => ({ start: i * 10, end: i * 10 + 5, speaker: i })),
    speakers: Array.from({ length: speakers }, (_, i) => ({ index: i, speechSec: 5, firstSpeechSec: i * 10, label: i === 0 ? 'Ada' : null, voiceprint: [i, 1, 0], metrics: {} as never })),
    method: { vad: 'v', diarization: 'd', voiceprint: 'p', realTimeFactor: null },
  } as MediaAnalysis;
}

const OK: AttemptOutcome = { ok: true, statusCode: 200, durationMs: 3, error: null, refused: false, retryAfterSec: null, gone: false };
const FAIL: AttemptOutcome = { ok: false, statusCode: 500, durationMs: 3, error: 'HTTP 500', refused: false, retryAfterSec: null, gone: false };

for (const backend of BACKENDS) {
  describe(`media, entities, results, feedback, workspaces and webhooks (${backend.name})`, { skip: backend.name === 'postgres' && pgSkip ? pgSkip : false }, () => {
    let t: OpenedTestStores;
    let s: Stores;
    before(async () => {
      t = await backend.open();
      s = t.stores;
    });
    after(() => t?.close());

    it("media: a row, its reservation and its analysis task together; the analysis, entities and charge together", async () => {
      const ws = await newWorkspace(s, 10);
      const m = await s.media.insert(media(ws, 90));
      assert.equal(m.analysisStatus, 'pending');
      assert.equal((await s.credits.balance(ws))?.reserved, 2, '2 started minutes reserved');
      assert.equal(await t.count("SELECT COUNT(*) AS n FROM tasks WHERE kind = 'media.analyze' AND ref_id = ?", m.id), 1);
      await s.media.markAnalysisRunning(m.id);
      await s.media.setAnalysisProgress(m.id, 'diarizing', 0.5);
      assert.deepEqual(await s.media.analysisProgress(m.id), { stage: 'diarizing', fraction: 0.5 });
      const [e1, e2] = [newId('ent'), newId('ent')];
      const links = [
        { speakerIndex: 0, entityId: e1, speechSec: 5, create: { voiceprint: [0, 1, 0], label: 'Ada' } },
        { speakerIndex: 1, entityId: e2, speechSec: 5, create: { voiceprint: [1, 1, 0], label: null } },
      ];
      assert.equal(await s.media.completeAnalysis(m.id, analysis(30, 2), links), 'done');
      assert.equal(await s.media.completeAnalysis(m.id, analysis(30, 2), links), 'done', 'twice is harmless');
      const done = await s.media.get(ws, m.id);
      assert.deepEqual([done?.analysisStatus, done?.engineVersion, done?.durationSec, done?.analysis?.speakers.length], ['ready', 'test-1', 30, 2]);
      const b = await s.credits.balance(ws);
      assert.deepEqual([b?.balance, b?.reserved], [9, 0], 'charged 1 minute, the unused minute released');
      assert.deepEqual([...(await s.media.links(m.id)).entries()], [[0, e1], [1, e2]]);
      assert.equal(await t.count('SELECT COUNT(*) AS n FROM tasks WHERE ref_id = ?', m.id), 0);
      const ada = await s.entities.get(ws, e1);
      assert.deepEqual([ada?.label, ada?.speechSec, ada?.appearances.length], ['Ada', 5, 1]);
      const prints = await s.entities.voiceprints(ws, m.id);
      assert.deepEqual(prints.map((p) => p.appearances).sort(), [0, 0]);
      assert.equal((await s.entities.voiceprints(ws)).find((p) => p.entityId === e1)?.appearances, 1);

      // A re-analysis keeps the replaced speakers aside, reserves again and queues the task.
      const again = await s.media.reanalyze(ws, m.id, { hints: { numSpeakers: 2 }, whileUsed: 'refuse' });
      assert.equal(again.state, 'reanalysing');
      assert.equal(again.state === 'reanalysing' && again.media.previousSpeakers?.length, 2);
      assert.equal((await s.credits.balance(ws))?.reserved, 1);
      await s.media.failAnalysis(m.id, { code: 'media_unreadable', message: 'x' }, 'test-1');
      assert.equal((await s.media.get(ws, m.id))?.analysisStatus, 'failed');
      assert.equal((await s.credits.balance(ws))?.reserved, 0, 'the failed analysis released its reservation');
      assert.equal((await s.media.links(m.id)).size, 0);
    });

    it('media: an analysis longer than its reservation that the workspace cannot pay stores nothing', async () => {
      const ws = await newWorkspace(s, 1);
      const m = await s.media.insert(media(ws, 30));
      await s.media.markAnalysisRunning(m.id);
      assert.equal(await s.media.completeAnalysis(m.id, analysis(600, 1), []), 'insufficient_credits');
      assert.equal((await s.media.get(ws, m.id))?.analysisStatus, 'running');
    });

    it('media: lists newest first, refuses to delete what a job uses, deletes with its reservation', async () => {
      const ws = await newWorkspace(s, 50);
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await s.media.insert(media(ws, 10))).id);
      const first = await s.media.list(ws, 3, undefined);
      assert.deepEqual(first.data.map((m) => m.id), ids.slice(2).reverse());
      const rest = await s.media.list(ws, 3, first.nextCursor ?? undefined);
      assert.deepEqual(rest.data.map((m) => m.id), ids.slice(0, 2).reverse());
      const used = ids[0] ?? '';
      const job = await s.jobs.create({ workspaceId: ws, type: 'report', request: { target: { mediaId: used } }, cost: 1 });
      assert.deepEqual(await s.media.deleteUnlessInUse(ws, used), { deleted: null, blockedBy: [job.id] });
      const before = (await s.credits.balance(ws))?.reserved ?? 0;
      const gone = await s.media.deleteUnlessInUse(ws, ids[1] ?? '');
      assert.equal(gone.deleted?.id, ids[1]);
      assert.equal((await s.credits.balance(ws))?.reserved, before - 1);
      assert.equal(await s.media.exists(ws, ids[1] ?? ''), false);
      assert.equal(await s.media.get(await newWorkspace(s), used), null, 'another workspace sees nothing');
    });

    it('entities: filters by tag and text, edits tags, merges appearances and tags', async () => {
      const ws = await newWorkspace(s, 10);
      const m = await s.media.insert(media(ws, 30));
      await s.media.markAnalysisRunning(m.id);
      const [a, b] = [newId('ent'), newId('ent')];
      await s.media.completeAnalysis(m.id, analysis(30, 2), [
        { speakerIndex: 0, entityId: a, speechSec: 5, create: { voiceprint: [0, 1, 0], label: 'Ada Lovelace' } },
        { speakerIndex: 1, entityId: b, speechSec: 7, create: { voiceprint: [1, 1, 0], label: null } },
      ]);
      assert.deepEqual((await s.entities.addTags(ws, a, ['Team', 'x']))?.tags, ['Team', 'x']);
      await s.entities.addTags(ws, b, ['y']);
      assert.deepEqual((await s.entities.list(ws, { limit: 10, tag: 'team' })).data.map((e) => e.id), [a]);
      assert.deepEqual((await s.entities.list(ws, { limit: 10, q: 'LOVE' })).data.map((e) => e.id), [a]);
      assert.equal((await s.entities.list(ws, { limit: 10 })).data.length, 2);
      assert.deepEqual((await s.entities.removeTag(ws, a, 'x'))?.tags, ['Team']);
      assert.equal((await s.entities.setLabel(ws, b, 'Bo'))?.label, 'Bo');
      assert.deepEqual(await s.entities.labels(ws, [a, b, a]), { [a]: { label: 'Ada Lovelace', tags: ['Team'] }, [b]: { label: 'Bo', tags: ['y'] } });
      const merged = await s.entities.merge(ws, a, [b]);
      assert.deepEqual([merged?.tags, merged?.speechSec, merged?.appearances.length], [['Team', 'y'], 12, 2]);
      assert.equal(await s.entities.exists(ws, b), false);
    });

    it('results and feedback: a result is read by its workspace and kind; feedback pages newest first', async () => {
      const ws = await newWorkspace(s, 10);
      const job = await s.jobs.create({ workspaceId: ws, type: 'matching', request: {}, cost: 1 });
      await s.jobs.succeed(job.id, { id: 'mat_result1', kind: 'matching', payloadJson: '{"m":1}', evidenceJson: '{"e":1}' }, { type: 'matching.completed', data: {}, webhook: undefined });
      assert.deepEqual(await s.results.get(ws, 'mat_result1', 'matching'), { id: 'mat_result1', jobId: job.id, kind: 'matching', payloadJson: '{"m":1}', evidenceJson: '{"e":1}' });
      assert.equal(await s.results.get(ws, 'mat_result1', 'report'), null);
      assert.equal(await s.results.exists(await newWorkspace(s), 'mat_result1'), false);
      for (let i = 1; i <= 3; i++) await s.feedback.insert(ws, { resultId: 'mat_result1', rating: i, comment: i === 2 ? 'ok' : null });
      const page = await s.feedback.list(ws, 2, undefined);
      assert.deepEqual(page.data.map((f) => [f.rating, f.comment]), [[3, undefined], [2, 'ok']]);
      assert.deepEqual((await s.feedback.list(ws, 2, page.nextCursor ?? undefined)).data.map((f) => f.rating), [1]);
    });

    it('workspaces: keys hashed and revocable, SERVICE_API_KEY ensured once, secrets rotated with grace, limits of its own', async () => {
      const apiKey = generateApiKey();
      const secret = generateSigningSecret();
      const { workspace, key } = await s.workspaces.createWorkspace({ name: 'acme', apiKey, signingSecret: secret, initialCredits: 0 });
      assert.equal((await s.workspaces.getWorkspace(workspace.id))?.name, 'acme');
      assert.ok(await s.workspaces.anyWorkspace());
      assert.equal((await s.workspaces.authenticate(apiKey))?.id, key.id);
      assert.equal(await t.count('SELECT COUNT(*) AS n FROM api_keys WHERE hash = ?', apiKey), 0, 'stored hashed');
      const service = generateApiKey();
      const ensured = await Promise.all([s.workspaces.ensureKey(workspace.id, service), s.workspaces.ensureKey(workspace.id, service)]);
      assert.deepEqual(ensured.sort(), ['created', 'live']);
      const other = await s.workspaces.createKey(workspace.id, { apiKey: generateApiKey(), scope: 'standard', name: 'ci' });
      assert.equal((await s.workspaces.listKeys(workspace.id)).length, 3);
      assert.ok((await s.workspaces.revokeKey(workspace.id, other.id))?.revokedAt);
      const serviceKey = await s.workspaces.authenticate(service);
      await s.workspaces.revokeKey(workspace.id, serviceKey?.id ?? '');
      assert.equal(await s.workspaces.ensureKey(workspace.id, service), 'revoked', 'a revoked key stays revoked');
      const now = Date.now();
      const rotated = await s.workspaces.rotateSigningSecret(workspace.id, generateSigningSecret(), now);
      assert.deepEqual(rotated.secrets.slice(1), [secret]);
      assert.equal((await s.workspaces.getSigningSecrets(workspace.id, now + 25 * 3600 * 1000)).secrets.length, 1);
      assert.equal(await s.workspaces.wasSigningSecret(workspace.id, secret), true);
      assert.equal(await s.workspaces.wasSigningSecret(workspace.id, generateSigningSecret()), false);
      assert.equal((await s.workspaces.authenticate(apiKey))?.rateLimits, null, 'no limits of its own');
      await s.workspaces.setRateLimits(workspace.id, { upload: 2, default: 500 });
      assert.deepEqual(await s.workspaces.getRateLimits(workspace.id), { upload: 2, default: 500 });
      assert.deepEqual((await s.workspaces.authenticate(apiKey))?.rateLimits, { upload: 2, default: 500 }, 'carried with the key');
      await s.workspaces.setRateLimits(workspace.id, {});
      assert.equal(await s.workspaces.getRateLimits(workspace.id), null);
    });

    it('webhooks: the outbox delivery is claimed by one process at a time, logged, retried and redelivered', async () => {
      const ws = await newWorkspace(s, 10);
      const url = `http://receiver.test/${newId('req')}`;
      const job = await s.jobs.create({ workspaceId: ws, type: 'report', request: {}, cost: 1 });
      await s.jobs.fail(job.id, { code: 'canceled', message: 'x' }, { type: 'report.failed', data: { jobId: job.id }, webhook: { url, headers: { 'x-a': '1' } } });
      const now = Date.now() + 1000;
      const due = (await s.webhooks.dueCandidates(now, { destinations: [], workspaces: [] }, 100, 100)).filter((d) => d.url === url);
      assert.equal(due.length, 1);
      assert.equal((await s.webhooks.dueCandidates(now, { destinations: ['http://receiver.test'], workspaces: [] }, 100, 100)).some((d) => d.url === url), false);
      const id = due[0]?.id ?? '';
      const claims = await Promise.all([s.webhooks.claim(id, 'p1', now, 30_000), s.webhooks.claim(id, 'p2', now, 30_000)]);
      const claim = claims.find((c) => c !== null);
      assert.equal(claims.filter((c) => c !== null).length, 1, 'one process takes the attempt');
      assert.deepEqual([claim?.attempt, claim?.headers, JSON.parse(claim?.body ?? '{}').type], [1, { 'x-a': '1' }, 'report.failed']);
      const owner = claims[0] ? 'p1' : 'p2';
      assert.equal(await s.webhooks.record(claim ?? (null as never), owner, FAIL, () => 60_000, now + 10), 'pending');
      assert.equal(await s.webhooks.nextDueAt(now + 20).then((at) => (at ?? 0) >= now + 60_000), true);
      assert.equal(await s.webhooks.redeliver(ws, id, now + 30), true);
      const second = await s.webhooks.claim(id, 'p3', now + 40, 30_000);
      assert.equal(second?.attempt, 2);
      assert.equal(await s.webhooks.redeliver(ws, id, now + 50), true, 'asked while in flight: remembered');
      assert.equal(await s.webhooks.record(second ?? (null as never), 'p3', OK, () => 60_000, now + 60), 'pending', 'the remembered redelivery follows');
      const third = await s.webhooks.claim(id, 'p3', now + 70, 30_000);
      await s.webhooks.release(third ?? (null as never), 'p3');
      const record = await s.webhooks.get(ws, id);
      assert.deepEqual(record?.attempts?.map((a) => a.outcome), ['failed', 'succeeded', 'interrupted']);
      assert.equal(record?.eventType, 'report.failed');
      const listed = await s.webhooks.list(ws, { jobId: job.id });
      assert.deepEqual(listed.data.map((d) => d.id), [id]);
      assert.equal((await s.webhooks.list(ws, { status: 'succeeded' })).data.length, 0);
      const counts = Object.fromEntries((await s.webhooks.attemptCounts()).map((c) => [c.outcome, c.n]));
      assert.ok((counts.failed ?? 0) >= 1 && (counts.succeeded ?? 0) >= 1);
      assert.ok((await s.webhooks.recentFirstAttemptLatencies()).length >= 1);
    });
  });
}
