// The SDK's media playback and analysis streams against a real service: `files.events` follows
// an upload's analysis stage by stage to its end, `files.stream` sees the workspace's uploads,
// `files.content` reads the bytes (whole, or a range as 206; outside the file a typed 416), and
// `files.createContentLink` gives an absolute URL that streams them without the key.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { RangeNotSatisfiableError, Rapport } from '../src/index.ts';
import type { MediaEvent } from '../src/index.ts';
import { start, twoVoiceWav } from './real-service.ts';
import type { Service } from './real-service.ts';

let service: Service;
let client: Rapport;

before(async () => {
  service = await start();
  client = new Rapport({ apiKey: service.apiKey, baseUrl: service.url });
});
after(() => service.close());

test('files.events follows an upload to media.ready; files.stream sees it too', async () => {
  const abort = new AbortController();
  const seen: MediaEvent[] = [];
  const workspace = (async () => {
    for await (const e of client.files.stream({ signal: abort.signal })) {
      seen.push(e);
      if (e.event !== 'media.updated') return;
    }
  })().catch((err: unknown) => {
    if ((err as Error).name !== 'AbortError') throw err;
  });
  // The workspace stream sends what changes after it opened: let it open first.
  await new Promise((r) => setTimeout(r, 300));
  const wav = twoVoiceWav(12);
  const media = await client.files.upload(wav, { filename: 'call.wav' });
  const events: MediaEvent[] = [];
  for await (const e of client.files.events(media.id)) events.push(e);
  const last = events.at(-1);
  assert.ok(last && last.event !== 'media.updated', 'ends with its terminal event');
  assert.equal(last.media.analysis.status, last.event === 'media.ready' ? 'ready' : 'failed');
  for (const e of events.slice(0, -1)) assert.equal(e.event, 'media.updated');
  const progress = events.map((e) => e.media.analysis.progress);
  assert.deepEqual(progress, [...progress].sort((a, b) => a - b), 'progress never goes back');
  await workspace;
  abort.abort();
  assert.ok(seen.some((e) => e.media.id === media.id), 'the workspace stream saw the upload');
  assert.equal(seen.at(-1)?.event, last.event);

  const whole = await client.files.content(media.id);
  assert.equal(whole.status, 200);
  assert.equal(whole.headers.get('content-type'), 'audio/wav');
  assert.deepEqual(new Uint8Array(await whole.arrayBuffer()), wav);
  const part = await client.files.content(media.id, { range: { start: 44, end: 143 } });
  assert.equal(part.status, 206);
  assert.equal(part.headers.get('content-range'), `bytes 44-143/${wav.byteLength}`);
  assert.deepEqual(new Uint8Array(await part.arrayBuffer()), wav.subarray(44, 144));
  await assert.rejects(client.files.content(media.id, { range: { start: wav.byteLength } }), (err: unknown) => {
    assert.ok(err instanceof RangeNotSatisfiableError);
    assert.equal(err.status, 416);
    assert.equal(err.code, 'RANGE_NOT_SATISFIABLE');
    assert.equal(err.headers.get('content-range'), `bytes */${wav.byteLength}`);
    return true;
  });

  const link = await client.files.createContentLink(media.id, { expiresInSec: 120 });
  assert.ok(link.url.startsWith(`${service.url}/v1/files/${media.id}/content?token=rl_`));
  assert.ok(!link.url.includes(service.apiKey));
  const played = await fetch(link.url, { headers: { range: 'bytes=0-43' } });
  assert.equal(played.status, 206);
  assert.deepEqual(new Uint8Array(await played.arrayBuffer()), wav.subarray(0, 44));
});
