// Speaker-count hints on POST /v1/files and POST /v1/files/:id/reanalyze, through HTTP in
// process with analyses written through the store (no engine: the worker is not started, so
// every state is the one the test sets). The real engine runs in reanalyze.engine.test.ts.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINE_VERSION, type MediaAnalysis } from '@rapport/analysis';
import { buildTestApp, call, insertSucceededMatching, json, type ErrorJson, type TestApp } from '../../test/helpers.ts';
import { newId } from '../ids.ts';
import { fileUpload, multipart, VTT, wavFile } from './files.fixtures.testkit.ts';
import type { Media } from './files.schemas.ts';
import { checkMediaReady } from '../jobs/member-resolver.ts';

function fakeAnalysis(engineVersion?: string): MediaAnalysis {
  return {
    version: 1,
    ...(engineVersion ? { engineVersion } : {}),
    durationSec: 2,
    segments: [
      { speaker: 0, start: 0.2, end: 1.0 },
      { speaker: 1, start: 1.1, end: 1.9 },
    ],
    speakers: [
      { index: 0, speechSec: 0.8, firstSpeechSec: 0.2, label: null, voiceprint: [1, 0], metrics: {} },
      { index: 1, speechSec: 0.8, firstSpeechSec: 1.1, label: null, voiceprint: [0, 1], metrics: {} },
    ],
    turns: [],
    transcript: null,
    method: { vad: 'test', diarization: 'test', voiceprint: 'test', realTimeFactor: null },
  } as unknown as MediaAnalysis;
}

describe('speaker-count hints and re-analysis', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ RATE_LIMIT_UPLOAD: '1000', RATE_LIMIT_FILES: '1000' });
  });
  after(async () => t.close());

  const send = (fields: Record<string, string>, data: Buffer | string = wavFile(1), name = 'a.wav') =>
    call(t, t.main, { method: 'POST', url: '/v1/files', ...fileUpload(data, name, fields) });
  const upload = async (fields: Record<string, string> = {}): Promise<Media> => {
    const res = await send(fields);
    assert.equal(res.statusCode, 201, res.body);
    return json<Media>(res);
  };
  const reanalyze = (id: string, body?: unknown, headers: Record<string, string> = {}) =>
    call(t, t.main, {
      method: 'POST',
      url: `/v1/files/${id}/reanalyze`,
      ...(body !== undefined ? { payload: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } } : { headers }),
    });
  const reserved = async () => (await t.services.stores.credits.balance(t.main.workspaceId))?.reserved ?? -1;
  const mediaRows = async () => (await t.sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM media'))?.n ?? -1;
  const analyzeTasks = async (id: string) => (await t.sql.get<{ n: number }>("SELECT COUNT(*) AS n FROM tasks WHERE kind = 'media.analyze' AND ref_id = ?", id))?.n ?? -1;

  /** Uploaded audio whose analysis is ready, speakers linked to two new entities. */
  async function analysed(fields: Record<string, string> = {}, engineVersion: string | null = ENGINE_VERSION) {
    const media = await upload(fields);
    const entityIds = [newId('ent'), newId('ent')] as [string, string];
    await t.services.stores.media.completeAnalysis(media.id, fakeAnalysis(engineVersion ?? undefined), [
      { speakerIndex: 0, entityId: entityIds[0], speechSec: 0.8, create: { voiceprint: [1, 0], label: null } },
      { speakerIndex: 1, entityId: entityIds[1], speechSec: 0.8, create: { voiceprint: [0, 1], label: null } },
    ]);
    return { media, entityIds };
  }

  it('an upload keeps numSpeakers, or minSpeakers and/or maxSpeakers, and shows them as analysis.speakerHints', async () => {
    assert.deepEqual((await upload({ numSpeakers: '2' })).analysis.speakerHints, { numSpeakers: 2 });
    assert.deepEqual((await upload({ minSpeakers: '2', maxSpeakers: '4' })).analysis.speakerHints, { minSpeakers: 2, maxSpeakers: 4 });
    assert.deepEqual((await upload({ maxSpeakers: '3' })).analysis.speakerHints, { maxSpeakers: 3 });
    assert.deepEqual((await upload({ minSpeakers: '20', maxSpeakers: '20' })).analysis.speakerHints, { minSpeakers: 20, maxSpeakers: 20 });
    const plain = await upload();
    assert.equal(plain.analysis.speakerHints, null);
    assert.equal(plain.analysis.engineVersion, null, 'no engine version before an analysis ends');
    const stored = await t.services.stores.media.load((await upload({ numSpeakers: '1' })).id);
    assert.deepEqual(stored?.speakerHints, { numSpeakers: 1 });
  });

  it('refuses hints that are not whole numbers 1..20, numSpeakers with a range, min above max: 400 naming each field, nothing stored', async () => {
    const rows = await mediaRows();
    const cases: [Record<string, string>, string[]][] = [
      [{ numSpeakers: '0' }, ['/numSpeakers']],
      [{ numSpeakers: '21' }, ['/numSpeakers']],
      [{ numSpeakers: '2.5' }, ['/numSpeakers']],
      [{ numSpeakers: 'two' }, ['/numSpeakers']],
      [{ numSpeakers: '' }, ['/numSpeakers']],
      [{ numSpeakers: '-2' }, ['/numSpeakers']],
      [{ minSpeakers: '0', maxSpeakers: '99' }, ['/minSpeakers', '/maxSpeakers']],
      [{ numSpeakers: '2', minSpeakers: '1' }, ['/minSpeakers']],
      [{ numSpeakers: '2', minSpeakers: '1', maxSpeakers: '3' }, ['/minSpeakers', '/maxSpeakers']],
      [{ minSpeakers: '4', maxSpeakers: '3' }, ['/minSpeakers']],
      [{ numSpeakers: '2', label: '' }, ['/label']],
    ];
    for (const [fields, paths] of cases) {
      const res = await send(fields);
      assert.equal(res.statusCode, 400, JSON.stringify(fields));
      const body = json<ErrorJson>(res);
      assert.equal(body.error.code, 'VALIDATION_FAILED');
      assert.deepEqual(body.error.details?.map((d) => d.path).sort(), paths.sort(), JSON.stringify(fields));
    }
    const twice = await call(t, t.main, {
      method: 'POST',
      url: '/v1/files',
      ...multipart([{ name: 'numSpeakers', data: '2' }, { name: 'numSpeakers', data: '3' }, { name: 'file', filename: 'a.wav', data: wavFile(1) }]),
    });
    assert.equal(twice.statusCode, 400);
    assert.equal(json<ErrorJson>(twice).error.details?.[0]?.path, '/numSpeakers');
    // A transcript on its own has no audio for a hint to apply to.
    const transcript = await send({ numSpeakers: '2' }, VTT, 'a.vtt');
    assert.equal(transcript.statusCode, 400);
    assert.deepEqual(json<ErrorJson>(transcript).error.details?.map((d) => d.path), ['/numSpeakers']);
    assert.equal(await mediaRows(), rows);
  });

  it('hints sent with a transcript attached to media replace its hints for the analysis that follows', async () => {
    const audio = await upload({ numSpeakers: '3' });
    const res = await send({ mediaId: audio.id, numSpeakers: '2' }, VTT, 'a.vtt');
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual(json<Media>(res).analysis.speakerHints, { numSpeakers: 2 });
    const kept = await send({ mediaId: audio.id }, VTT, 'a.vtt');
    assert.deepEqual(json<Media>(kept).analysis.speakerHints, { numSpeakers: 2 });
  });

  it('re-analysis of ready media: 202, analysis pending again with Location, credits reserved again, the task queued; stored hints kept without a body', async () => {
    const { media } = await analysed({ numSpeakers: '2' });
    const ready = json<Media>(await call(t, t.main, { method: 'GET', url: `/v1/files/${media.id}` }));
    assert.equal(ready.analysis.engineVersion, ENGINE_VERSION);
    assert.equal(await analyzeTasks(media.id), 0);
    const before = await reserved();
    const res = await reanalyze(media.id);
    assert.equal(res.statusCode, 202, res.body);
    assert.equal(res.headers.location, `/v1/files/${media.id}`);
    const m = json<Media>(res);
    assert.equal(m.analysis.status, 'pending');
    assert.deepEqual(m.analysis.speakers, []);
    assert.equal(m.analysis.engineVersion, null);
    assert.deepEqual(m.analysis.speakerHints, { numSpeakers: 2 });
    assert.equal(await reserved(), before + 1, 'an analysis of up to a minute reserves 1 credit');
    assert.equal(await analyzeTasks(media.id), 1);
    // The replaced speakers are kept for relinking until the new analysis ends.
    const stored = await t.services.stores.media.load(media.id);
    assert.deepEqual(stored?.previousSpeakers?.map((p) => p.segments), [[[0.2, 1]], [[1.1, 1.9]]]);
  });

  it('automatic person names stay the same after a re-analysis that numbers the speakers the other way (issue 40 item 7)', async () => {
    const { media, entityIds } = await analysed();
    // The second entity as one made before its name was stored (migration 13): its name is frozen at the re-analysis.
    await t.sql.run('UPDATE entities SET auto_name = NULL WHERE id = ?', entityIds[1]);
    const names = async () => Promise.all(entityIds.map(async (id) => json<{ name: string }>(await call(t, t.main, { method: 'GET', url: `/v1/entities/${id}` })).name));
    assert.deepEqual(await names(), ['Speaker 1 in a.wav', 'Speaker 2 in a.wav']);
    assert.equal((await reanalyze(media.id)).statusCode, 202);
    // The new analysis hears the second voice first: the same people, numbered the other way.
    await t.services.stores.media.completeAnalysis(media.id, fakeAnalysis(ENGINE_VERSION), [
      { speakerIndex: 0, entityId: entityIds[1], speechSec: 0.8 },
      { speakerIndex: 1, entityId: entityIds[0], speechSec: 0.8 },
    ]);
    const e0 = json<{ appearances: { speakerIndex: number }[] }>(await call(t, t.main, { method: 'GET', url: `/v1/entities/${entityIds[0]}` }));
    assert.equal(e0.appearances[0]?.speakerIndex, 1, 'the first person is now the second speaker');
    assert.deepEqual(await names(), ['Speaker 1 in a.wav', 'Speaker 2 in a.wav'], 'nobody renamed');
  });

  it('a body with hints replaces the stored ones, null clears them, an empty body keeps them', async () => {
    const { media } = await analysed({ minSpeakers: '2' });
    const replaced = json<Media>(await reanalyze(media.id, { maxSpeakers: 5 }));
    assert.deepEqual(replaced.analysis.speakerHints, { maxSpeakers: 5 });
    // Still pending: a second call only swaps the hints, and reserves nothing more.
    const before = await reserved();
    const swapped = await reanalyze(media.id, { numSpeakers: 3 });
    assert.equal(swapped.statusCode, 202);
    assert.deepEqual(json<Media>(swapped).analysis.speakerHints, { numSpeakers: 3 });
    assert.deepEqual(json<Media>(await reanalyze(media.id, {})).analysis.speakerHints, { numSpeakers: 3 });
    assert.equal(json<Media>(await reanalyze(media.id, { numSpeakers: null })).analysis.speakerHints, null);
    assert.equal(await reserved(), before);
    assert.equal(await analyzeTasks(media.id), 1);
  });

  it('400 for a body that is not hints: out of range, not integers, unknown fields, cross-field rules', async () => {
    const { media } = await analysed();
    const cases: [unknown, string[]][] = [
      [{ numSpeakers: 0 }, ['/numSpeakers']],
      [{ numSpeakers: 21 }, ['/numSpeakers']],
      [{ numSpeakers: 2.5 }, ['/numSpeakers']],
      [{ numSpeakers: '2' }, ['/numSpeakers']],
      [{ speakers: 2 }, ['/speakers']],
      [{ numSpeakers: 2, maxSpeakers: 3 }, ['/maxSpeakers']],
      [{ minSpeakers: 5, maxSpeakers: 2 }, ['/minSpeakers']],
      [[], ['/']],
    ];
    for (const [body, paths] of cases) {
      const res = await reanalyze(media.id, body);
      assert.equal(res.statusCode, 400, JSON.stringify(body));
      assert.equal(json<ErrorJson>(res).error.code, 'VALIDATION_FAILED');
      // A nullable field out of range is named twice (not the number asked, and not null), as everywhere in the API.
      assert.deepEqual([...new Set(json<ErrorJson>(res).error.details?.map((d) => d.path))], paths, JSON.stringify(body));
    }
    const bad = await call(t, t.main, { method: 'POST', url: `/v1/files/${media.id}/reanalyze`, payload: '{"numSpeakers":', headers: { 'content-type': 'application/json' } });
    assert.equal(json<ErrorJson>(bad).error.code, 'INVALID_JSON');
    assert.equal((await t.services.stores.media.load(media.id))?.analysisStatus, 'ready', 'nothing changed');
  });

  it('404 for unknown or foreign media, 409 for a transcript, a running analysis, or media a queued job uses', async () => {
    assert.equal((await reanalyze(newId('med'))).statusCode, 404);
    const { media } = await analysed();
    const foreign = await call(t, t.other, { method: 'POST', url: `/v1/files/${media.id}/reanalyze` });
    assert.equal(foreign.statusCode, 404);
    const transcript = json<Media>(await send({}, VTT, 'a.vtt'));
    const tr = await reanalyze(transcript.id);
    assert.equal(tr.statusCode, 409);
    assert.match(json<ErrorJson>(tr).error.message, /transcript/);

    const job = await t.services.stores.jobs.create({
      workspaceId: t.main.workspaceId,
      type: 'report',
      request: { target: { type: 'media_target', mediaId: media.id, selector: { strategy: 'dominant' } } },
      cost: 1,
    });
    const used = await reanalyze(media.id);
    assert.equal(used.statusCode, 409);
    assert.match(json<ErrorJson>(used).error.message, new RegExp(job.id));
    assert.equal((await t.services.stores.media.load(media.id))?.analysisStatus, 'ready');
    assert.equal((await call(t, t.main, { method: 'POST', url: `/v1/jobs/${job.id}/cancel` })).statusCode, 200);
    assert.equal((await reanalyze(media.id)).statusCode, 202);

    await t.services.stores.media.markAnalysisRunning(media.id);
    const running = await reanalyze(media.id);
    assert.equal(running.statusCode, 409);
    assert.match(json<ErrorJson>(running).error.message, /being analysed/);
  });

  it("while a re-analysis is owed, entities keep their appearance in the media and jobs naming them wait; a failed one drops it", async () => {
    const { media, entityIds } = await analysed();
    assert.equal((await reanalyze(media.id)).statusCode, 202);
    const entity = await call(t, t.main, { method: 'GET', url: `/v1/entities/${entityIds[0]}` });
    assert.deepEqual(json<{ appearances: { mediaId: string }[] }>(entity).appearances.map((a) => a.mediaId), [media.id]);
    const members = [{ member: { type: 'entity_id' as const, entityId: entityIds[0] }, ref: 'target' }];
    assert.equal((await checkMediaReady(t.services.stores, t.main.workspaceId, members)).ready, false);
    await t.services.stores.media.failAnalysis(media.id, { code: 'media_unreadable', message: 'x' }, ENGINE_VERSION);
    const after = json<{ appearances: unknown[] }>(await call(t, t.main, { method: 'GET', url: `/v1/entities/${entityIds[0]}` }));
    assert.deepEqual(after.appearances, []);
  });

  it('failed media can be analysed again', async () => {
    const media = await upload();
    await t.services.stores.media.failAnalysis(media.id, { code: 'media_unreadable', message: 'x' }, 'old-engine');
    assert.equal(json<Media>(await call(t, t.main, { method: 'GET', url: `/v1/files/${media.id}` })).analysis.engineVersion, 'old-engine');
    const res = await reanalyze(media.id);
    assert.equal(res.statusCode, 202);
    const m = json<Media>(res);
    assert.equal(m.analysis.status, 'pending');
    assert.equal(m.analysis.error, undefined);
  });

  it('Idempotency-Key: the same request is answered once (one reservation), another body with the key is 422', async () => {
    const { media } = await analysed();
    const before = await reserved();
    const key = { 'idempotency-key': `re-${media.id}` };
    const first = await reanalyze(media.id, { numSpeakers: 2 }, key);
    assert.equal(first.statusCode, 202);
    const again = await reanalyze(media.id, { numSpeakers: 2 }, key);
    assert.equal(again.statusCode, 202);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(again.body, first.body);
    assert.equal(again.headers.location, `/v1/files/${media.id}`);
    assert.equal(await reserved(), before + 1);
    const other = await reanalyze(media.id, { numSpeakers: 3 }, key);
    assert.equal(other.statusCode, 422);
    assert.equal(json<ErrorJson>(other).error.code, 'IDEMPOTENCY_KEY_REUSED');
  });

  it('402 INSUFFICIENT_CREDITS when an analysis cannot be reserved; the analysis stays as it was', async () => {
    const { media } = await analysed();
    const balance = await t.services.stores.credits.balance(t.main.workspaceId);
    (await t.sql.run('UPDATE workspaces SET reserved = balance WHERE id = ?', t.main.workspaceId));
    try {
      const res = await reanalyze(media.id);
      assert.equal(res.statusCode, 402);
      assert.equal(json<ErrorJson>(res).error.code, 'INSUFFICIENT_CREDITS');
      const stored = await t.services.stores.media.load(media.id);
      assert.equal(stored?.analysisStatus, 'ready');
      assert.equal(stored?.analysis?.speakers.length, 2);
      assert.equal((await t.services.stores.media.links(media.id)).size, 2);
    } finally {
      (await t.sql.run('UPDATE workspaces SET reserved = ? WHERE id = ?', balance?.reserved ?? 0, t.main.workspaceId));
    }
  });

  it('GET /v1/files?outdated=true lists audio and video analysed (or failed) by another engine version, or by one that recorded none', async () => {
    const current = await analysed({}, ENGINE_VERSION);
    const older = await analysed({}, '2020.01.01-1');
    const unrecorded = await analysed({}, null);
    const failedOld = await upload();
    await t.services.stores.media.failAnalysis(failedOld.id, { code: 'media_unreadable', message: 'x' }, '2020.01.01-1');
    const pending = await upload();
    const transcript = json<Media>(await send({}, VTT, 'a.vtt'));
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { data: Media[]; nextCursor: string | null } = json(await call(t, t.main, { method: 'GET', url: `/v1/files?outdated=true&limit=2${cursor ? `&cursor=${cursor}` : ''}` }));
      ids.push(...page.data.map((m) => m.id));
      cursor = page.nextCursor;
    } while (cursor);
    for (const m of [older.media, unrecorded.media, failedOld]) assert.ok(ids.includes(m.id), `${m.id} is outdated`);
    for (const m of [current.media, pending, transcript]) assert.ok(!ids.includes(m.id), `${m.id} is not outdated`);
    const all = json<{ data: Media[] }>(await call(t, t.main, { method: 'GET', url: '/v1/files?outdated=false&limit=100' })).data.map((m) => m.id);
    assert.ok(all.includes(current.media.id) && all.includes(pending.id));
    assert.equal((await call(t, t.main, { method: 'GET', url: '/v1/files?outdated=maybe' })).statusCode, 400);
    // Once asked for again, it is no longer outdated (the current engine will analyse it).
    assert.equal((await reanalyze(older.media.id)).statusCode, 202);
    const after = json<{ data: Media[] }>(await call(t, t.main, { method: 'GET', url: '/v1/files?outdated=true&limit=100' })).data.map((m) => m.id);
    assert.ok(!after.includes(older.media.id));
  });

  it('results of finished jobs stay exactly as they were', async () => {
    const { media, entityIds } = await analysed();
    const { jobId, resultId } = await insertSucceededMatching(t.services, t.main.workspaceId, media.id, entityIds[0]);
    const urls = [`/v1/matching/${resultId}`, `/v1/matching/by-job/${jobId}`, `/v1/matching/${resultId}/evidence`, `/v1/jobs/${jobId}`];
    const before = await Promise.all(urls.map(async (url) => (await call(t, t.main, { method: 'GET', url })).body));
    assert.equal((await reanalyze(media.id, { numSpeakers: 1 })).statusCode, 202);
    await t.services.stores.media.completeAnalysis(media.id, { ...fakeAnalysis(ENGINE_VERSION), speakers: [fakeAnalysis().speakers[0]!] } as MediaAnalysis, []);
    const after = await Promise.all(urls.map(async (url) => (await call(t, t.main, { method: 'GET', url })).body));
    assert.deepEqual(after, before);
  });
});
