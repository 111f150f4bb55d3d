// Bad input never yields a 500: malformed JSON, wrong content types, bodies over 1 MiB,
// multipart sent to JSON routes, broken uploads (no file part, two, empty, not media, too
// large), odd paths and query strings, and a seeded fuzz of the matching body. Every answer is
// a 4xx with the error body of decisions §2.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildTestApp, insertEntity, insertMedia, matchingBody, type ErrorJson, type TestApp } from './helpers.ts';
import { registeredRoutes } from './routes.ts';

let t: TestApp;
let hasUpload = false;

function assertClientError(res: LightMyRequestResponse, status: number | null, code: string | null, what: string): void {
  assert.ok(res.statusCode >= 400 && res.statusCode < 500, `${what}: ${res.statusCode} ${res.body}`);
  if (status !== null) assert.equal(res.statusCode, status, `${what}: ${res.body}`);
  const body = JSON.parse(res.body) as ErrorJson;
  assert.equal(typeof body.error.message, 'string', what);
  assert.equal(body.error.requestId, res.headers['x-request-id'], what);
  if (code !== null) assert.equal(body.error.code, code, `${what}: ${res.body}`);
}

const send = (opts: InjectOptions) => t.app.inject({ ...opts, headers: { 'service-api-key': t.main.apiKey, ...(opts.headers ?? {}) } });
const postJob = (payload: string | Buffer, contentType?: string) =>
  send({ method: 'POST', url: '/v1/matching/jobs', payload, headers: contentType ? { 'content-type': contentType } : {} });

const B = 'rapport-test-boundary';
const part = (name: string, filename: string | null, content: string | Buffer): Buffer =>
  Buffer.concat([
    Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}\r\n${filename ? 'Content-Type: application/octet-stream\r\n' : ''}\r\n`),
    Buffer.isBuffer(content) ? content : Buffer.from(content),
    Buffer.from('\r\n'),
  ]);
const multipart = (...parts: Buffer[]) => Buffer.concat([...parts, Buffer.from(`--${B}--\r\n`)]);
const upload = (payload: string | Buffer, contentType = `multipart/form-data; boundary=${B}`) =>
  send({ method: 'POST', url: '/v1/files', payload, headers: { 'content-type': contentType } });
const VTT = 'WEBVTT\n\n00:00.000 --> 00:01.500\n<v Ann>Hello there\n';

describe('bad input never yields a 500', () => {
  before(async () => {
    t = await buildTestApp({ RATE_LIMIT_DEFAULT: '100000', RATE_LIMIT_UPLOAD: '100000', MAX_UPLOAD_BYTES: '4096' });
    hasUpload = (await registeredRoutes(t.services)).some((r) => r.method === 'POST' && r.url === '/v1/files');
  });
  after(() => t.close());

  describe('JSON routes', () => {
    it('malformed JSON → 400 INVALID_JSON', async () => {
      for (const text of ['{"group": [', '{group: 1}', "{'a': 1}", '{"a":1}}', '\u0000', '{"a": 1,}']) {
        assertClientError(await postJob(text, 'application/json'), 400, 'INVALID_JSON', JSON.stringify(text));
      }
    });

    it('an empty JSON body → 400 INVALID_JSON', async () => {
      assertClientError(await postJob('', 'application/json'), 400, 'INVALID_JSON', 'empty');
    });

    it('no body and no content type on a route that needs a body → 400 INVALID_JSON', async () => {
      assertClientError(await send({ method: 'POST', url: '/v1/matching/jobs' }), 400, 'INVALID_JSON', 'no body');
      assertClientError(await send({ method: 'POST', url: '/v1/entities/merge' }), 400, 'INVALID_JSON', 'no body on merge');
    });

    it('JSON that is not an object → 400 VALIDATION_FAILED', async () => {
      for (const text of ['null', '[]', '"text"', '42', 'true']) assertClientError(await postJob(text, 'application/json'), 400, 'VALIDATION_FAILED', text);
    });

    it('wrong content types → 415', async () => {
      for (const ct of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'image/png']) {
        assertClientError(await postJob('{"a":1}', ct), 415, 'UNSUPPORTED_MEDIA_TYPE', ct);
      }
    });

    it('a body over 1 MiB → 413', async () => {
      const big = JSON.stringify({ ...matchingBody('med_x', 'ent_x'), label: 'x'.repeat(1024 * 1024) });
      assertClientError(await postJob(big, 'application/json'), 413, 'PAYLOAD_TOO_LARGE', 'big JSON');
    });

    it('a multipart request to a JSON route → 415', async () => {
      assertClientError(await postJob(multipart(part('group', null, '[]')), `multipart/form-data; boundary=${B}`), 415, 'UNSUPPORTED_MEDIA_TYPE', 'multipart');
      const patch = await send({ method: 'POST', url: '/v1/reports/jobs', payload: multipart(part('file', 'a.vtt', VTT)), headers: { 'content-type': `multipart/form-data; boundary=${B}` } });
      assertClientError(patch, 415, 'UNSUPPORTED_MEDIA_TYPE', 'multipart to reports');
    });

    it('deep nesting, invalid UTF-8 and huge numbers → 400', async () => {
      assertClientError(await postJob(`${'['.repeat(100_000)}${']'.repeat(100_000)}`, 'application/json'), 400, null, 'deep nesting');
      assertClientError(await postJob(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]), 'application/json'), 400, null, 'invalid UTF-8');
      const huge = JSON.stringify(matchingBody('med_x', 'ent_x')).replace('"dominant"}', '"speaker_index","speaker_index":1e400}');
      assertClientError(await postJob(huge, 'application/json'), 400, null, '1e400');
    });

    it('odd paths and query strings → 4xx', async () => {
      for (const url of [
        `/v1/jobs/${'x'.repeat(300)}`,
        '/v1/jobs/%E0%A4%A',
        '/v1/jobs?limit=1&limit=2',
        '/v1/jobs?limit=-1',
        '/v1/jobs?cursor=',
        '/v1/matching/by-job/%00',
        '/v1/../etc/passwd',
        '/v1/jobs/job_x/../../openapi.json',
        '/v1//jobs',
      ]) {
        const res = await send({ method: 'GET', url });
        assert.ok(res.statusCode < 500, `${url}: ${res.statusCode} ${res.body}`);
        if (res.statusCode >= 400) assertClientError(res, null, null, url);
      }
    });

    it('a seeded fuzz of the matching body never yields a 5xx', async () => {
      const mediaId = (await insertMedia(t.services, t.main.workspaceId, { kind: 'transcript' })).id;
      const entityId = await insertEntity(t.services, t.main.workspaceId);
      let seed = 12345;
      const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
      const values = [null, true, 0, -1, 1.5, 2 ** 60, '', 'x', '😀'.repeat(70), [], [null], {}, { type: 'entity_id' }, 'a'.repeat(3000)];
      const mutate = (node: unknown, depth: number): unknown => {
        if (depth > 0 && rand() < 0.15) return values[Math.floor(rand() * values.length)];
        if (Array.isArray(node)) return node.map((n) => mutate(n, depth + 1));
        if (node && typeof node === 'object') {
          const out: Record<string, unknown> = {};
          for (const [k, v] of Object.entries(node)) if (rand() > 0.05) out[k] = mutate(v, depth + 1);
          if (rand() < 0.05) out[`extra${depth}`] = 1;
          return out;
        }
        return node;
      };
      const base = matchingBody(mediaId, entityId, {
        label: 'fuzz',
        group: [{ type: 'entity_id', entityId }, { type: 'media_target', mediaId, selector: { strategy: 'timerange', on_miss: 'error', timerange: { start_seconds: 1, end_seconds: 2 } } }],
        webhook: { url: 'https://hooks.example.com/x', headers: { 'x-a': 'b' } },
      });
      for (let i = 0; i < 300; i++) {
        const res = await postJob(JSON.stringify(mutate(base, 0)), 'application/json');
        assert.ok(res.statusCode < 500, `fuzz ${i}: ${res.statusCode} ${res.body}`);
      }
    });
  });

  describe('uploads', () => {
    const ifUpload = (ctx: { skip: (msg: string) => void }): boolean => {
      if (hasUpload) return true;
      ctx.skip('POST /v1/files is not registered yet');
      console.log('# skipped: the upload route POST /v1/files is not registered yet');
      return false;
    };

    it('no file part → 400 at /file', async (ctx) => {
      if (!ifUpload(ctx)) return;
      const res = await upload(multipart(part('label', null, 'only a label')));
      assertClientError(res, 400, 'VALIDATION_FAILED', 'no file part');
      assert.ok(JSON.parse(res.body).error.details.some((d: { path: string }) => d.path === '/file'));
    });

    it('two file parts → 400', async (ctx) => {
      if (!ifUpload(ctx)) return;
      assertClientError(await upload(multipart(part('file', 'a.vtt', VTT), part('file', 'b.vtt', VTT))), 400, 'VALIDATION_FAILED', 'two files');
    });

    it('an empty file → 400', async (ctx) => {
      if (!ifUpload(ctx)) return;
      assertClientError(await upload(multipart(part('file', 'a.wav', ''))), 400, 'VALIDATION_FAILED', 'empty file');
    });

    it('a file that is no media → 415, whatever its name', async (ctx) => {
      if (!ifUpload(ctx)) return;
      for (const [name, content] of [['a.wav', 'this is not media'], ['a.mp4', Buffer.from([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])], ['a.vtt', 'just some words\nno cues']] as const) {
        assertClientError(await upload(multipart(part('file', name, content))), 415, 'UNSUPPORTED_MEDIA_TYPE', name);
      }
    });

    it('a file over the size limit → 413, and no file or row is left', async (ctx) => {
      if (!ifUpload(ctx)) return;
      const before = (await t.sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM media'))?.n;
      assertClientError(await upload(multipart(part('file', 'a.wav', Buffer.alloc(10_000, 1)))), 413, 'PAYLOAD_TOO_LARGE', 'too large');
      assert.equal((await t.sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM media'))?.n, before);
    });

    it('JSON, a missing boundary, and a truncated body → 4xx', async (ctx) => {
      if (!ifUpload(ctx)) return;
      assertClientError(await upload('{"file":"x"}', 'application/json'), 415, 'UNSUPPORTED_MEDIA_TYPE', 'JSON upload');
      assertClientError(await upload('garbage', 'multipart/form-data'), null, null, 'no boundary');
      assertClientError(await upload(`--${B}\r\nContent-Disposition: form-data; name="file"; filename="a.vtt"\r\n\r\nWEBVTT`), 400, null, 'truncated');
      assertClientError(await upload(multipart(part('file', 'a.vtt', VTT), part('unknown', null, 'x'))), 400, 'VALIDATION_FAILED', 'unknown field');
    });

    it('a valid transcript is accepted (the checks above are not refusing everything)', async (ctx) => {
      if (!ifUpload(ctx)) return;
      const res = await upload(multipart(part('file', 'talk.vtt', VTT), part('label', null, 'Standup')));
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(JSON.parse(res.body).kind, 'transcript');
    });
  });
});
