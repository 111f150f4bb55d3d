// Idempotency-Key on POST routes other than job creation (decisions §5 "on any POST"), and
// the body key and header key naming the same request; an upload's key compares the bytes sent
// (issue 20, finding 14: it compared their length only).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, call, insertEntity, insertMedia, json, matchingBody, type TestApp } from './helpers.ts';
import { fileUpload, wavFile } from '../src/files/files.fixtures.testkit.ts';

describe('Idempotency-Key on any POST', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ RATE_LIMIT_UPLOAD: '1000' });
  });
  after(async () => t.close());

  it('does not create a second API key; the replay names the first without showing its secret again (409)', async () => {
    const headers = { 'idempotency-key': 'create-key-1', 'content-type': 'application/json' };
    const first = await call(t, t.main, { method: 'POST', url: '/v1/workspace/keys', headers, payload: { scope: 'standard', name: 'ci' } });
    const second = await call(t, t.main, { method: 'POST', url: '/v1/workspace/keys', headers, payload: { scope: 'standard', name: 'ci' } });
    assert.equal(first.statusCode, 201);
    assert.equal(first.headers['idempotent-replayed'], undefined);
    // A secret is shown once and never stored for a replay (issue 20, finding 7).
    assert.equal(second.statusCode, 409);
    const created = json<{ id: string; apiKey: string }>(first);
    assert.match(second.body, new RegExp(created.id));
    assert.ok(!second.body.includes(created.apiKey));
    const keys = json<{ data: { name: string | null }[] }>(await call(t, t.main, { method: 'GET', url: '/v1/workspace/keys' }));
    assert.equal(keys.data.filter((k) => k.name === 'ci').length, 1);
  });

  it('answers 422 for the same key with another body, and frees the key after an error', async () => {
    const entityId = await insertEntity(t.services, t.main.workspaceId, 'Ada');
    const url = `/v1/entities/${entityId}/tags`;
    const headers = { 'idempotency-key': 'tags-1', 'content-type': 'application/json' };
    assert.equal((await call(t, t.main, { method: 'POST', url, headers, payload: { tags: ['a'] } })).statusCode, 200);
    const other = await call(t, t.main, { method: 'POST', url, headers, payload: { tags: ['b'] } });
    assert.equal(other.statusCode, 422);
    assert.equal(json<{ error: { code: string } }>(other).error.code, 'IDEMPOTENCY_KEY_REUSED');
    const missing = await call(t, t.main, { method: 'POST', url: '/v1/entities/ent_missing000000000000000/tags', headers: { ...headers, 'idempotency-key': 'tags-2' }, payload: { tags: ['a'] } });
    assert.equal(missing.statusCode, 404);
    const retried = await call(t, t.main, { method: 'POST', url, headers: { ...headers, 'idempotency-key': 'tags-2' }, payload: { tags: ['a'] } });
    assert.equal(retried.statusCode, 200, 'a key whose first request failed can be used again');
  });

  it('treats the body idempotencyKey and the same header key as one request', async () => {
    const media = await insertMedia(t.services, t.main.workspaceId);
    const entityId = await insertEntity(t.services, t.main.workspaceId);
    const first = await call(t, t.main, { method: 'POST', url: '/v1/matching/jobs', payload: matchingBody(media.id, entityId, { idempotencyKey: 'same-1' }) });
    const second = await call(t, t.main, { method: 'POST', url: '/v1/matching/jobs', headers: { 'idempotency-key': 'same-1' }, payload: matchingBody(media.id, entityId) });
    assert.equal(first.statusCode, 202);
    assert.equal(second.statusCode, 202);
    assert.equal(json<{ jobId: string }>(second).jobId, json<{ jobId: string }>(first).jobId);
  });

  it('refuses a key over 255 characters', async () => {
    const res = await call(t, t.main, { method: 'POST', url: '/v1/workspace/keys', headers: { 'idempotency-key': 'k'.repeat(256), 'content-type': 'application/json' }, payload: {} });
    assert.equal(res.statusCode, 400);
    assert.equal(json<{ error: { code: string } }>(res).error.code, 'VALIDATION_FAILED');
  });

  describe('on an upload', () => {
    const wav = wavFile(1);
    // The same length, other bytes: one sample changed.
    const other = Buffer.from(wav);
    other.writeInt16LE(1234, 1000);
    const upload = (data: Buffer, key: string, fields: Record<string, string> = {}, boundary?: string) => {
      const form = fileUpload(data, 'talk.wav', fields);
      let { payload } = form;
      let type = form.headers['content-type'] ?? '';
      if (boundary) {
        const old = type.split('boundary=')[1] ?? '';
        payload = Buffer.from(payload.toString('latin1').replaceAll(old, boundary), 'latin1');
        type = `multipart/form-data; boundary=${boundary}`;
      }
      return call(t, t.main, { method: 'POST', url: '/v1/files', payload, headers: { 'content-type': type, 'idempotency-key': key } });
    };
    const mediaCount = () => t.sql.count('SELECT COUNT(*) AS n FROM media WHERE workspace_id = ?', t.main.workspaceId);

    it('replays the same bytes (also in a body with another multipart boundary) and stores one media', async () => {
      const before = await mediaCount();
      const first = await upload(wav, 'up-1');
      assert.equal(first.statusCode, 201, first.body);
      const again = await upload(wav, 'up-1', {}, 'another-boundary-42');
      assert.equal(again.statusCode, 201, again.body);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.equal(json<{ id: string }>(again).id, json<{ id: string }>(first).id);
      assert.equal(await mediaCount(), before + 1);
    });

    it('answers 422 IDEMPOTENCY_KEY_REUSED for other bytes of the same length, or other fields, under the same key', async () => {
      // The bytes up-1 stored: the duplicate's answer (decisions §18), kept under its key all the same.
      const first = await upload(wav, 'up-2');
      assert.equal(first.statusCode, 200, first.body);
      const before = await mediaCount();
      assert.equal(other.length, wav.length);
      const changed = await upload(other, 'up-2');
      assert.equal(changed.statusCode, 422, changed.body);
      assert.equal(json<{ error: { code: string } }>(changed).error.code, 'IDEMPOTENCY_KEY_REUSED');
      const labelled = await upload(wav, 'up-2', { label: 'another' });
      assert.equal(labelled.statusCode, 422, labelled.body);
      assert.equal(await mediaCount(), before, 'nothing stored');
      assert.equal(await t.sql.count("SELECT COUNT(*) AS n FROM idempotency_keys WHERE key = 'up-2'"), 1);
    });

    it('a key whose upload failed is not used: a retry with it runs', async () => {
      const failed = await upload(Buffer.from('not audio at all, nor a transcript'), 'up-3');
      assert.equal(failed.statusCode, 415, failed.body);
      // Bytes not uploaded before (wavFile's every call differs), so the retry stores them: 201.
      const retried = await upload(wavFile(1), 'up-3');
      assert.equal(retried.statusCode, 201, retried.body);
      assert.equal(retried.headers['idempotent-replayed'], undefined);
    });
  });
});
