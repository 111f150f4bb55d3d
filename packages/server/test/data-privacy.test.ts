// Findings 12 and 14 of issue 20: the store and the media files are readable by the service's user
// only, and a transcript's speaker name becomes an entity label of at most 64 characters.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import path from 'node:path';
import type { MediaAnalysis } from '@rapport/analysis';
import { buildTestApp, call, json, type TestApp } from './helpers.ts';
import { fileUpload, wavFile } from '../src/files/files.fixtures.testkit.ts';

let t: TestApp;
before(async () => {
  t = await buildTestApp();
});
after(async () => t.close());

const mode = (p: string): number => statSync(p).mode & 0o777;

describe('data at rest', () => {
  it('the database (with its WAL) and the media files and folders are owner-only', async () => {
    const res = await call(t, t.main, { method: 'POST', url: '/v1/files', ...fileUpload(wavFile(1), 'a.wav') });
    assert.equal(res.statusCode, 201, res.body);
    const stored = await t.services.stores.media.load(json<{ id: string }>(res).id);
    // On PostgreSQL the database is the server's; the media are still files here.
    const database = t.services.stores.backend.kind === 'sqlite' ? [path.join(t.dataDir, 'rapport.db'), path.join(t.dataDir, 'rapport.db-wal')] : [];
    for (const p of [...database, stored?.storagePath ?? '']) {
      assert.equal(mode(p) & 0o077, 0, `${path.basename(p)} has mode ${mode(p).toString(8)}`);
    }
    for (const d of ['media', 'tmp']) assert.equal(mode(path.join(t.dataDir, d)) & 0o077, 0, `${d}/ has mode ${mode(path.join(t.dataDir, d)).toString(8)}`);
  });

  it('a 200-character speaker name becomes a 64-character entity label', async () => {
    const res = await call(t, t.main, { method: 'POST', url: '/v1/files', ...fileUpload(wavFile(1), 'b.wav') });
    const id = json<{ id: string }>(res).id;
    const name = 'N'.repeat(200);
    const analysis = {
      version: 1, durationSec: 1, segments: [], turns: [], transcript: null,
      speakers: [{ index: 0, speechSec: 1, firstSpeechSec: 0, label: name, voiceprint: [1, 0], metrics: {} }],
      method: { vad: 'test', diarization: 'test', voiceprint: 'test', realTimeFactor: null },
    } as unknown as MediaAnalysis;
    await t.services.stores.media.completeAnalysis(id, analysis, [{ speakerIndex: 0, entityId: 'ent_longlabel0000000000001', speechSec: 1, create: { voiceprint: [1, 0], label: name } }]);
    const entity = json<{ label: string }>(await call(t, t.main, { method: 'GET', url: '/v1/entities/ent_longlabel0000000000001' }));
    assert.equal(entity.label, 'N'.repeat(64));
  });
});
