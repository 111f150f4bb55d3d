// Speaker-count hints and re-analysis through the SDK against a real service (its real engine):
// hints sent with the upload come back on the media, every analysis records the engine version,
// files.reanalyze keeps or replaces the hints and keeps the entities, bad hints are a
// ValidationError naming the field, and nothing the current engine analysed is outdated.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ConflictError, Rapport, ValidationError } from '../src/index.ts';
import type { Media } from '../src/index.ts';
import { start, twoVoiceWav } from './real-service.ts';
import type { Service } from './real-service.ts';

let service: Service;
let client: Rapport;
before(async () => {
  service = await start();
  client = new Rapport({ apiKey: service.apiKey, baseUrl: service.url });
});
after(() => service.close());

async function settled(id: string): Promise<Media> {
  for (const until = Date.now() + 300_000; Date.now() < until; ) {
    const m = await client.files.retrieve(id);
    if (m.analysis.status === 'ready' || m.analysis.status === 'failed') return m;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`analysis of ${id} did not finish`);
}

test('upload with hints, re-analyse keeping them, then replacing and clearing them', async () => {
  const uploaded = await client.files.upload(twoVoiceWav(16), { filename: 'two.wav', minSpeakers: 2, maxSpeakers: 3 });
  assert.deepEqual(uploaded.analysis.speakerHints, { minSpeakers: 2, maxSpeakers: 3 });
  assert.equal(uploaded.analysis.engineVersion, null);
  const first = await settled(uploaded.id);
  assert.equal(first.analysis.status, 'ready', JSON.stringify(first.analysis.error));
  assert.match(first.analysis.engineVersion ?? '', /\S/);

  const again = await client.files.reanalyze(uploaded.id);
  assert.equal(again.analysis.status, 'pending');
  assert.deepEqual(again.analysis.speakerHints, { minSpeakers: 2, maxSpeakers: 3 });
  const second = await settled(uploaded.id);
  assert.equal(second.analysis.engineVersion, first.analysis.engineVersion);
  assert.deepEqual(second.analysis.speakers.map((s) => s.entityId), first.analysis.speakers.map((s) => s.entityId));

  assert.deepEqual((await client.files.reanalyze(uploaded.id, { numSpeakers: 2 })).analysis.speakerHints, { numSpeakers: 2 });
  // Still pending (or already running): a second call swaps the hints, or waits for the run to end.
  try {
    assert.equal((await client.files.reanalyze(uploaded.id, { numSpeakers: null })).analysis.speakerHints, null);
  } catch (err) {
    assert.ok(err instanceof ConflictError, String(err));
  }
  await settled(uploaded.id);
  for await (const m of client.files.list({ outdated: true })) assert.fail(`${m.id} is not outdated: the current engine analysed it`);
});

test('bad hints are a ValidationError naming the field, on upload and on re-analysis', async () => {
  await assert.rejects(client.files.upload(twoVoiceWav(2), { filename: 'x.wav', numSpeakers: 0 }), (err: unknown) =>
    err instanceof ValidationError && err.details?.[0]?.path === '/numSpeakers');
  const media = await client.files.upload(twoVoiceWav(4), { filename: 'y.wav' });
  await assert.rejects(client.files.reanalyze(media.id, { minSpeakers: 4, maxSpeakers: 2 }), (err: unknown) =>
    err instanceof ValidationError && err.details?.[0]?.path === '/minSpeakers');
  await assert.rejects(client.files.reanalyze(media.id, { numSpeakers: 2, maxSpeakers: 3 }), (err: unknown) =>
    err instanceof ValidationError && err.details?.[0]?.path === '/maxSpeakers');
});
