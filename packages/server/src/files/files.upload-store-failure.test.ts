// An upload whose store commits the media's row and then fails to answer (a connection lost after
// COMMIT, a timeout on the reply): the request fails, but the row is there, naming the file the
// upload stored. Before, the failed request removed that file whatever the row said, so the media
// stayed listed and its content answered 404 "no longer stored": an accepted upload lost. Now the
// file goes only when no row names it.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { buildTestApp, call, json, type TestApp } from '../../test/helpers.ts';
import { fileUpload, wavFile } from './files.fixtures.testkit.ts';
import { mediaIdOfFile } from '../store/blob-store.ts';
import type { Media } from './files.schemas.ts';

describe('an upload whose store committed and then failed to answer', { timeout: 20_000 }, () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ RATE_LIMIT_UPLOAD: '1000', RATE_LIMIT_DEFAULT: '100000', ROLE: 'api' });
  });
  after(async () => t.close());

  it('keeps the file its row names, so the media is served', async () => {
    const { media } = t.services.stores;
    const insert = media.insertUnlessDuplicate.bind(media);
    media.insertUnlessDuplicate = async (...args) => {
      await insert(...args);
      throw new Error('connection lost after commit');
    };
    const wav = wavFile(1.5);
    let res;
    try {
      res = await call(t, t.main, { method: 'POST', url: '/v1/files', ...fileUpload(wav, 'lost-reply.wav') });
    } finally {
      media.insertUnlessDuplicate = insert;
    }
    assert.ok(res.statusCode >= 500, `the request fails (${res.statusCode})`);
    const list = json<{ data: Media[] }>(await call(t, t.main, { method: 'GET', url: '/v1/files' }));
    const stored = list.data.find((m) => m.filename === 'lost-reply.wav');
    assert.ok(stored, 'the row was committed');
    const content = await call(t, t.main, { method: 'GET', url: `/v1/files/${stored.id}/content` });
    assert.equal(content.statusCode, 200, content.body);
    assert.ok(content.rawPayload.equals(wav), 'the bytes uploaded');
  });

  it('still removes the file when no row names it', async () => {
    const { media } = t.services.stores;
    const insert = media.insertUnlessDuplicate.bind(media);
    media.insertUnlessDuplicate = async () => {
      throw new Error('connection lost before commit');
    };
    try {
      const res = await call(t, t.main, { method: 'POST', url: '/v1/files', ...fileUpload(wavFile(1.7), 'never-stored.wav') });
      assert.ok(res.statusCode >= 500, `the request fails (${res.statusCode})`);
    } finally {
      media.insertUnlessDuplicate = insert;
    }
    const rows = new Set(json<{ data: Media[] }>(await call(t, t.main, { method: 'GET', url: '/v1/files' })).data.map((m) => m.id));
    const strays = readdirSync(path.join(t.dataDir, 'media')).filter((name) => !rows.has(mediaIdOfFile(name)));
    assert.deepEqual(strays, [], 'no file without a row');
    assert.deepEqual(readdirSync(path.join(t.dataDir, 'tmp')), [], 'nothing left in tmp/');
  });
});
