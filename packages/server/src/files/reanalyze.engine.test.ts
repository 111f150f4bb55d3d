// Re-analysis with the real engine on a generated two-voice recording, through HTTP in process:
// the hints reach the engine on upload and on every re-analysis (stored ones reused, new ones
// replacing them), each analysis records the engine version, entities keep their ids (also when
// the stored voiceprints come from another speaker model and cannot be compared), and each
// analysis is charged like an upload's. The engine is wrapped only to record what it was asked;
// it keeps its analysis process warm between the analyses of the workspace, as the service does.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINE_VERSION, type SpeakerCountHint } from '@rapport/analysis';
import { buildTestApp, call, json, waitFor, type TestApp } from '../../test/helpers.ts';
import { createEngine } from '../analysis/create-engine.ts';
import type { AnalysisEngine } from '../analysis/engine.ts';
import { fileUpload, twoVoiceWav } from './files.fixtures.testkit.ts';
import type { Media } from './files.schemas.ts';

describe('re-analysis with the real engine', () => {
  let t: TestApp;
  const asked: (SpeakerCountHint | undefined)[] = [];
  const workspaces = new Set<string | undefined>();
  const real = createEngine({ processReuse: 20, idleProcesses: 1 });
  before(async () => {
    const engine: AnalysisEngine = {
      ...real,
      analyzeMedia: (input) => {
        asked.push(input.speakers);
        workspaces.add(input.workspaceId);
        return real.analyzeMedia(input);
      },
    };
    t = await buildTestApp({ RATE_LIMIT_UPLOAD: '1000', RATE_LIMIT_FILES: '1000' }, { engine });
    t.composed.worker?.start();
  });
  after(async () => {
    await t.close();
    await real.close?.();
  });

  const get = async (id: string) => json<Media>(await call(t, t.main, { method: 'GET', url: `/v1/files/${id}` }));
  const settled = (id: string) =>
    waitFor(async () => {
      const m = await get(id);
      return m.analysis.status === 'ready' || m.analysis.status === 'failed' ? m : null;
    }, 60_000, `analysis of ${id}`);
  const reanalyze = (id: string, body?: unknown) =>
    call(t, t.main, {
      method: 'POST',
      url: `/v1/files/${id}/reanalyze`,
      ...(body !== undefined ? { payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}),
    });
  const entityCount = async () => (await t.sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM entities WHERE workspace_id = ?', t.main.workspaceId))?.n ?? -1;
  const links = (m: Media) => m.analysis.speakers.map((s) => [s.index, s.entityId]);

  let mediaId = '';
  let first: Media;

  it('an upload with numSpeakers hands { exact } to the engine and records the engine version', async () => {
    const res = await call(t, t.main, { method: 'POST', url: '/v1/files', ...fileUpload(twoVoiceWav(24), 'two.wav', { numSpeakers: '2' }) });
    assert.equal(res.statusCode, 201, res.body);
    mediaId = json<Media>(res).id;
    first = await settled(mediaId);
    assert.equal(first.analysis.status, 'ready', JSON.stringify(first.analysis.error));
    assert.deepEqual(asked, [{ exact: 2 }]);
    assert.equal(first.analysis.engineVersion, ENGINE_VERSION);
    assert.deepEqual(first.analysis.speakerHints, { numSpeakers: 2 });
    // The engine keeps to the hint.
    assert.equal(first.analysis.speakers.length, 2);
    assert.ok(first.analysis.speakers.every((s) => s.entityId !== null));
  });

  it('re-analysis without a body runs with the stored hints; every speaker keeps its entity; charged like the first analysis', async () => {
    const entities = await entityCount();
    const res = await reanalyze(mediaId);
    assert.equal(res.statusCode, 202, res.body);
    const again = await settled(mediaId);
    assert.equal(again.analysis.status, 'ready');
    assert.deepEqual(asked.at(-1), { exact: 2 });
    assert.deepEqual(links(again), links(first));
    // In the process the first analysis left warm: the engine is told whose media it is.
    assert.deepEqual([...workspaces], [t.main.workspaceId]);
    assert.deepEqual(again.analysis.speakers.map((s) => [s.speechSec, s.firstSpeechSec]), first.analysis.speakers.map((s) => [s.speechSec, s.firstSpeechSec]));
    assert.equal(await entityCount(), entities, 'no entity was created');
    for (const s of again.analysis.speakers) {
      const e = json<{ appearances: { mediaId: string; speakerIndex: number }[] }>(await call(t, t.main, { method: 'GET', url: `/v1/entities/${s.entityId}` }));
      assert.deepEqual(e.appearances.map((a) => [a.mediaId, a.speakerIndex]), [[mediaId, s.index]]);
    }
    const txns = json<{ data: { kind: string; amount: number; mediaId?: string }[] }>(await call(t, t.main, { method: 'GET', url: '/v1/credits/transactions?limit=100' })).data;
    const charges = txns.filter((x) => x.mediaId === mediaId && x.kind === 'charge');
    assert.deepEqual(charges.map((c) => Math.abs(c.amount)), [1, 1], '24 s costs 1 credit, each time');
  });

  it('after a change of speaker model (voiceprints that cannot be compared) entities still keep their ids, by when they speak', async () => {
    // What a database left by an older engine looks like: another version, voiceprints of another
    // length, which linkSpeakers never compares with the current model's: only carrying entities
    // over by speech time can keep their ids.
    const db = t.sql;
    const modelLength = (await t.services.stores.media.load(mediaId))!.analysis!.speakers[0]!.voiceprint.length;
    assert.notEqual(modelLength, 3);
    await db.run("UPDATE media SET engine_version = '2020.01.01-1' WHERE id = ?", mediaId);
    await db.run("UPDATE entities SET voiceprint_json = '[0.5,0.5,0.5]' WHERE workspace_id = ?", t.main.workspaceId);
    const raw = JSON.parse((await db.get<{ analysis_json: string }>('SELECT analysis_json FROM media WHERE id = ?', mediaId))!.analysis_json) as { speakers: { voiceprint: number[] }[] };
    for (const s of raw.speakers) s.voiceprint = [0.5, 0.5, 0.5];
    await db.run('UPDATE media SET analysis_json = ? WHERE id = ?', JSON.stringify(raw), mediaId);
    const outdated = json<{ data: Media[] }>(await call(t, t.main, { method: 'GET', url: '/v1/files?outdated=true' })).data;
    assert.deepEqual(outdated.map((m) => m.id), [mediaId]);
    const entities = await entityCount();
    const res = await reanalyze(mediaId, { minSpeakers: 2, maxSpeakers: 2 });
    assert.equal(res.statusCode, 202, res.body);
    const again = await settled(mediaId);
    assert.deepEqual(asked.at(-1), { min: 2, max: 2 });
    assert.deepEqual(again.analysis.speakerHints, { minSpeakers: 2, maxSpeakers: 2 });
    assert.equal(again.analysis.engineVersion, ENGINE_VERSION);
    assert.deepEqual(links(again), links(first));
    assert.equal(await entityCount(), entities);
    // The carried entities now hold voiceprints of the current model.
    const prints = await t.services.stores.entities.voiceprints(t.main.workspaceId);
    assert.deepEqual([...new Set(prints.map((p) => p.voiceprint.length))], [modelLength]);
    assert.deepEqual(json<{ data: Media[] }>(await call(t, t.main, { method: 'GET', url: '/v1/files?outdated=true' })).data, []);
  });
});
