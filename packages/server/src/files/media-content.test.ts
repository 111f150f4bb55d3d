// GET /v1/files/:id/content and its content links: the stored bytes exactly, one byte range as
// 206 with Content-Range (start-end, start-, -suffix, past the end clipped), 416 with
// `Content-Range: bytes */size` for ranges that cannot be served, ranges a server may ignore
// ignored, ETag/If-None-Match/If-Range, HEAD, workspace isolation, and links that stream one
// media without the key and nothing else, until they expire or their key is revoked.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, call, json, sqlOf, type ErrorJson, type TestApp } from '../../test/helpers.ts';
import { fileUpload, VTT, wavFile } from './files.fixtures.testkit.ts';
import type { ContentLink, Media } from './files.schemas.ts';
import { parseRange } from './media-content.ts';
import { redactTokens } from '../http/app.ts';

describe('parseRange', () => {
  it('reads the three forms of one byte range and clips the end to the file', () => {
    assert.deepEqual(parseRange('bytes=0-9', 100), { kind: 'partial', start: 0, end: 9 });
    assert.deepEqual(parseRange('bytes=90-', 100), { kind: 'partial', start: 90, end: 99 });
    assert.deepEqual(parseRange('bytes=-10', 100), { kind: 'partial', start: 90, end: 99 });
    assert.deepEqual(parseRange('bytes=-500', 100), { kind: 'partial', start: 0, end: 99 });
    assert.deepEqual(parseRange('bytes=50-5000', 100), { kind: 'partial', start: 50, end: 99 });
    assert.deepEqual(parseRange('BYTES = 1-1', 100), { kind: 'partial', start: 1, end: 1 });
  });
  it('ignores what a server may ignore: no header, another unit, several ranges', () => {
    assert.deepEqual(parseRange(undefined, 100), { kind: 'full' });
    assert.deepEqual(parseRange('items=0-4', 100), { kind: 'full' });
    assert.deepEqual(parseRange('bytes=0-4,10-14', 100), { kind: 'full' });
  });
  it('refuses ranges that cannot be served', () => {
    for (const h of ['bytes=100-', 'bytes=200-300', 'bytes=9-3', 'bytes=-0', 'bytes=a-b', 'bytes=-', 'bytes=', 'nonsense']) {
      assert.equal(parseRange(h, 100).kind, 'unsatisfiable', h);
    }
  });
  it('says why: an open range past the end starts after the file, it does not end before it starts', () => {
    assert.deepEqual(parseRange('bytes=500-', 100), { kind: 'unsatisfiable', reason: 'the range 500- starts at or after the end of the file (100 bytes)' });
    assert.deepEqual(parseRange('bytes=9-3', 100), { kind: 'unsatisfiable', reason: 'the range 9-3 ends before it starts' });
  });
});

describe('GET /v1/files/:id/content', () => {
  let t: TestApp;
  let audio: Media;
  let transcript: Media;
  const wav = wavFile(1);

  before(async () => {
    t = await buildTestApp({ RATE_LIMIT_UPLOAD: '1000', RATE_LIMIT_FILES: '1000' });
    const up = async (data: Buffer | string, name: string) => json<Media>(await call(t, t.main, { method: 'POST', url: '/v1/files', ...fileUpload(data, name) }));
    audio = await up(wav, 'talk.wav');
    transcript = await up(VTT, 'talk.vtt');
  });
  after(async () => t.close());

  const get = (url: string, headers: Record<string, string> = {}, tenant: typeof t.main | null = t.main) => call(t, tenant, { method: 'GET', url, headers });

  it('answers the whole file under its detected type, with Accept-Ranges and the SHA-256 as ETag', async () => {
    const res = await get(`/v1/files/${audio.id}/content`);
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'audio/wav');
    assert.equal(res.headers['accept-ranges'], 'bytes');
    assert.equal(res.headers['content-length'], String(wav.length));
    assert.equal(res.headers.etag, `"${audio.sha256}"`);
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.match(String(res.headers['content-disposition']), /^inline; filename="talk.wav"/);
    assert.ok(res.rawPayload.equals(wav));
    assert.ok(res.headers['x-ratelimit-limit'], 'rate-limit headers as on every /v1 answer');
    const vtt = await get(`/v1/files/${transcript.id}/content`);
    assert.equal(vtt.statusCode, 200);
    assert.equal(vtt.body, VTT);
    assert.match(String(vtt.headers['content-disposition']), /^attachment;/);
  });

  it('answers one range as 206 with Content-Range', async () => {
    for (const [range, start, end] of [['bytes=0-43', 0, 43], ['bytes=1000-', 1000, wav.length - 1], ['bytes=-100', wav.length - 100, wav.length - 1], ['bytes=10-99999999', 10, wav.length - 1]] as const) {
      const res = await get(`/v1/files/${audio.id}/content`, { range });
      assert.equal(res.statusCode, 206, range);
      assert.equal(res.headers['content-range'], `bytes ${start}-${end}/${wav.length}`);
      assert.equal(res.headers['content-length'], String(end - start + 1));
      assert.ok(res.rawPayload.equals(wav.subarray(start, end + 1)), range);
    }
  });

  it('answers 416 with the error body and `Content-Range: bytes */size` for a range it cannot serve', async () => {
    for (const range of [`bytes=${wav.length}-`, 'bytes=50-10', 'bytes=x-y', 'bytes=-0']) {
      const res = await get(`/v1/files/${audio.id}/content`, { range });
      assert.equal(res.statusCode, 416, range);
      assert.equal(res.headers['content-range'], `bytes */${wav.length}`);
      const body = json<ErrorJson>(res);
      assert.equal(body.error.code, 'RANGE_NOT_SATISFIABLE');
      assert.match(body.error.requestId, /^req_/);
    }
  });

  it('sends the whole file when the range may be ignored, or If-Range no longer matches', async () => {
    assert.equal((await get(`/v1/files/${audio.id}/content`, { range: 'bytes=0-1,5-6' })).statusCode, 200);
    assert.equal((await get(`/v1/files/${audio.id}/content`, { range: 'items=0-1' })).statusCode, 200);
    assert.equal((await get(`/v1/files/${audio.id}/content`, { range: 'bytes=0-1', 'if-range': '"other"' })).statusCode, 200);
    assert.equal((await get(`/v1/files/${audio.id}/content`, { range: 'bytes=0-1', 'if-range': `"${audio.sha256}"` })).statusCode, 206);
    assert.equal((await get(`/v1/files/${audio.id}/content`, { 'if-none-match': `"${audio.sha256}"` })).statusCode, 304);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const res = await call(t, t.main, { method: 'HEAD', url: `/v1/files/${audio.id}/content`, headers: { range: 'bytes=0-9' } });
    assert.equal(res.statusCode, 206);
    assert.equal(res.headers['content-length'], '10');
    assert.equal(res.headers['content-range'], `bytes 0-9/${wav.length}`);
    assert.equal(res.body, '');
  });

  it('keeps workspaces apart and needs a key', async () => {
    const other = await get(`/v1/files/${audio.id}/content`, {}, t.other);
    assert.equal(other.statusCode, 404);
    assert.equal(json<ErrorJson>(other).error.code, 'NOT_FOUND');
    const none = await get(`/v1/files/${audio.id}/content`, {}, null);
    assert.equal(none.statusCode, 401);
    assert.equal((await get('/v1/files/med_missing/content')).statusCode, 404);
  });

  describe('content links', () => {
    const mint = async (id: string, body?: unknown, tenant = t.main) =>
      call(t, tenant, { method: 'POST', url: `/v1/files/${id}/content-links`, ...(body === undefined ? {} : { payload: body as Record<string, unknown> }) });

    it('mints a link that streams that media, with ranges, without the key', async () => {
      const res = await mint(audio.id);
      assert.equal(res.statusCode, 201, res.body);
      const link = json<ContentLink>(res);
      assert.match(link.url, new RegExp(`^/v1/files/${audio.id}/content\\?token=rl_[A-Za-z0-9]{40}$`));
      assert.ok(!link.url.includes(t.main.apiKey));
      const left = Date.parse(link.expiresAt) - Date.now();
      assert.ok(left > 890_000 && left <= 900_000, `about 15 min left, got ${left} ms`);
      const full = await get(link.url, {}, null);
      assert.equal(full.statusCode, 200);
      assert.ok(full.rawPayload.equals(wav));
      const part = await get(link.url, { range: 'bytes=44-99' }, null);
      assert.equal(part.statusCode, 206);
      assert.ok(part.rawPayload.equals(wav.subarray(44, 100)));
    });

    it('is good for that media and that route only', async () => {
      const { url } = json<ContentLink>(await mint(audio.id));
      const token = new URL(url, 'http://x').searchParams.get('token') as string;
      const elsewhere = await get(`/v1/files/${transcript.id}/content?token=${token}`, {}, null);
      assert.equal(elsewhere.statusCode, 401);
      assert.match(json<ErrorJson>(elsewhere).error.message, /for other media/);
      for (const other of [`/v1/files/${audio.id}?token=${token}`, `/v1/files/${audio.id}/diarization?token=${token}`, `/v1/files?token=${token}`]) {
        assert.equal((await get(other, {}, null)).statusCode, 401, other);
      }
      assert.equal((await get(`/v1/files/${audio.id}/content?token=rl_guess`, {}, null)).statusCode, 401);
    });

    it('anywhere else, as ?token= or sent as the key, is 401 UNAUTHENTICATED saying it is a content link for its media\'s content URL only', async () => {
      const { url } = json<ContentLink>(await mint(audio.id));
      const token = new URL(url, 'http://x').searchParams.get('token') as string;
      const onlyThere = /content link.*valid only on the content URL of its own media, GET \/v1\/files\/\{id\}\/content\?token=/;
      const refused = async (method: 'GET' | 'POST' | 'DELETE', path: string, headers: Record<string, string>) => {
        const res = await call(t, null, { method, url: path, headers });
        assert.equal(res.statusCode, 401, `${method} ${path} ${JSON.stringify(headers)}`);
        const body = json<ErrorJson>(res);
        assert.equal(body.error.code, 'UNAUTHENTICATED');
        assert.match(body.error.requestId, /^req_/);
        assert.match(body.error.message, onlyThere, `${method} ${path}`);
        return body.error.message;
      };
      for (const [method, path] of [
        ['GET', `/v1/files/${audio.id}`], ['GET', `/v1/files/${audio.id}/diarization`], ['GET', '/v1/files'], ['GET', '/v1/credits'],
        ['POST', `/v1/files/${audio.id}/content-links`], ['DELETE', `/v1/files/${audio.id}`],
      ] as const) {
        const asQuery = await refused(method, `${path}?token=${token}`, {});
        assert.match(asQuery, /^A \?token= is a content link, not an API key/);
      }
      // Sent as the key, on another route or on its own content route (where it goes in the URL).
      for (const headers of [{ authorization: `Bearer ${token}` }, { 'service-api-key': token }] as Record<string, string>[]) {
        for (const path of [`/v1/files/${audio.id}`, `/v1/files/${audio.id}/content`]) {
          assert.match(await refused('GET', path, headers), /^This is a content link's token, not an API key: sent as \?token=/);
        }
      }
      // The link still streams its media, and an unknown key keeps the generic message.
      assert.equal((await get(url, {}, null)).statusCode, 200);
      const unknown = await call(t, null, { method: 'GET', url: `/v1/files/${audio.id}`, headers: { 'service-api-key': 'rk_unknown' } });
      assert.equal(unknown.statusCode, 401);
      assert.doesNotMatch(json<ErrorJson>(unknown).error.message, /content link/);
      // Nothing is deleted or minted through it.
      assert.equal((await get(`/v1/files/${audio.id}`)).statusCode, 200);
    });

    it('takes expiresInSec within 60–3600 and refuses others', async () => {
      const short = json<ContentLink>(await mint(audio.id, { expiresInSec: 60 }));
      assert.ok(Date.parse(short.expiresAt) - Date.now() <= 60_000);
      for (const bad of [{ expiresInSec: 59 }, { expiresInSec: 3601 }, { expiresInSec: '60' }, { other: 1 }]) {
        const res = await mint(audio.id, bad);
        assert.equal(res.statusCode, 400, JSON.stringify(bad));
        assert.equal(json<ErrorJson>(res).error.code, 'VALIDATION_FAILED');
      }
    });

    it('is refused once expired', async () => {
      const { url } = json<ContentLink>(await mint(audio.id, { expiresInSec: 60 }));
      await sqlOf(t.services.stores).run('UPDATE content_links SET expires_at = ?', Date.now() - 1);
      const res = await get(url, {}, null);
      assert.equal(res.statusCode, 401);
      assert.match(json<ErrorJson>(res).error.message, /expired/);
    });

    it('is refused once the key that made it is revoked, and goes with its media', async () => {
      const made = json<{ id: string; apiKey: string }>(await call(t, t.main, { method: 'POST', url: '/v1/workspace/keys', payload: { name: 'player' } }));
      const player = { ...t.main, apiKey: made.apiKey };
      const { url } = json<ContentLink>(await mint(audio.id, undefined, player));
      assert.equal((await get(url, {}, null)).statusCode, 200);
      assert.equal((await call(t, t.main, { method: 'DELETE', url: `/v1/workspace/keys/${made.id}` })).statusCode, 204);
      assert.equal((await get(url, {}, null)).statusCode, 401);

      const gone = json<Media>(await call(t, t.main, { method: 'POST', url: '/v1/files', ...fileUpload(VTT, 'gone.vtt') }));
      await mint(gone.id);
      assert.equal((await call(t, t.main, { method: 'DELETE', url: `/v1/files/${gone.id}` })).statusCode, 204);
      assert.equal(await sqlOf(t.services.stores).count('SELECT COUNT(*) AS n FROM content_links WHERE media_id = ?', gone.id), 0);
    });

    it('never shows a token in the request log', () => {
      assert.equal(redactTokens('/v1/files/med_1/content?token=rl_abc&x=1'), '/v1/files/med_1/content?token=[redacted]&x=1');
      assert.equal(redactTokens('/v1/files/med_1/content?a=1&token=rl_abc'), '/v1/files/med_1/content?a=1&token=[redacted]');
      assert.equal(redactTokens('/v1/files'), '/v1/files');
    });

    it('is not kept for idempotent replay (a link is a bearer capability), and is 404 for unknown media', async () => {
      const res = await call(t, t.main, { method: 'POST', url: `/v1/files/${audio.id}/content-links`, headers: { 'idempotency-key': 'link-1' } });
      assert.equal(res.statusCode, 201);
      assert.equal(await sqlOf(t.services.stores).count("SELECT COUNT(*) AS n FROM idempotency_keys WHERE response_json LIKE '%rl_%'"), 0);
      assert.equal((await mint('med_unknown')).statusCode, 404);
      assert.equal((await mint(audio.id, undefined, t.other)).statusCode, 404);
    });
  });
});
