// The periodic sweep of stored media files without a row, as the service composes it: processes
// that run jobs sweep (asking the media store of any workspace), an API-only process does not.
// The start-up sweep keeps files as young as the periodic one does: in a cluster it runs while the
// other processes sharing MEDIA_DIR upload (it removed orphans a minute old). Temporary files of
// crashed uploads are swept periodically by their age alone. A failed start-up sweep says when
// the process sweeps again: every ORPHAN_SWEEP_SEC, or for an API-only process its next start.
// An upload still in flight keeps its temporary file through any sweep, however long ago it was
// last written (before, a sweep while a slow client's last fields trickled in removed it: a 500).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { sweepAtStart } from '../src/store/orphan-sweeper.ts';
import { fileUpload, multipart, wavFile, TWO_NAMES_VTT } from '../src/files/files.fixtures.testkit.ts';
import type { Media } from '../src/files/files.schemas.ts';
import { buildTestApp, call, insertMedia, json, waitFor, type TestApp } from './helpers.ts';

/** A file in the media folder written `ageMs` ago. */
function storedAgo(dir: string, name: string, ageMs: number): void {
  const file = path.join(dir, 'media', name);
  writeFileSync(file, 'x');
  const at = (Date.now() - ageMs) / 1000;
  utimesSync(file, at, at);
}

describe('the periodic orphan sweep of the composed service', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  it("removes an old file no row claims and keeps every workspace's media", async () => {
    const media = path.join(t.dataDir, 'media');
    const mine = (await insertMedia(t.services, t.main.workspaceId)).id;
    const theirs = (await insertMedia(t.services, t.other.workspaceId)).id;
    const twoHoursAgo = (Date.now() - 2 * 3600 * 1000) / 1000;
    for (const name of [mine, theirs, 'med_orphan']) {
      writeFileSync(path.join(media, name), 'x');
      utimesSync(path.join(media, name), twoHoursAgo, twoHoursAgo);
    }
    assert.ok(t.composed.orphans, 'role all sweeps');
    assert.deepEqual(await t.composed.orphans.sweep(), { temp: 0, orphans: 1 });
    assert.deepEqual(readdirSync(media).sort(), [mine, theirs].sort());
  });

  it("removes a crashed upload's temporary file once unmodified for the idle timeout and an hour, not before", async () => {
    assert.ok(t.composed.orphans);
    const tmp = path.join(t.dataDir, 'tmp');
    for (const [name, ageMs] of [['upload-crashed', 3600 * 1000 + 2 * 60 * 1000], ['upload-quiet', 30 * 60 * 1000]] as const) {
      writeFileSync(path.join(tmp, name), 'x');
      const at = (Date.now() - ageMs) / 1000;
      utimesSync(path.join(tmp, name), at, at);
    }
    assert.deepEqual(await t.composed.orphans.sweep(), { temp: 1, orphans: 0 });
    assert.deepEqual(readdirSync(tmp), ['upload-quiet']);
    rmSync(path.join(tmp, 'upload-quiet'));
  });

  for (const [when, fields] of [['mid-file', {}], ['after the file, before a last field', { label: 'slow' }]] as const) {
    it(`an upload whose temporary file looks long unmodified keeps it through a sweep ${when}, and is stored whole`, async () => {
      const { orphans } = t.composed;
      assert.ok(orphans);
      const tmp = path.join(t.dataDir, 'tmp');
      const wav = wavFile(4);
      // The file part first, then the fields: a slow client's body arrives in two pieces, the
      // sweep between them, with the file's time as old as a quiet hour-long upload's could be.
      const { payload, headers } = multipart([{ name: 'file', filename: 'slow.wav', contentType: 'audio/wav', data: wav }, ...Object.entries(fields).map(([name, data]) => ({ name, data }))]);
      const cut = Object.keys(fields).length === 0 ? 4096 : payload.length - 60;
      const body = new PassThrough();
      const answer = call(t, t.main, { method: 'POST', url: '/v1/files', headers: { ...headers, 'content-length': String(payload.length) }, payload: body });
      body.write(payload.subarray(0, cut));
      const [name] = await waitFor(() => {
        const names = readdirSync(tmp);
        return names.length > 0 ? names : null;
      }, 5000, 'the upload to reach its temporary file');
      assert.ok(name);
      const file = path.join(tmp, name);
      // Its bytes so far on disk (all of the file's, when cut after it), then its time set back
      // past the temporary files' safe age.
      const written = Object.keys(fields).length === 0 ? 1 : wav.length;
      await waitFor(() => readFileSync(file).length >= written || null, 5000, 'the bytes sent so far written');
      const longAgo = (Date.now() - t.composed.startSweeps.tempOlderThanMs - 60 * 1000) / 1000;
      utimesSync(file, longAgo, longAgo);
      const swept = await orphans.sweep();
      const kept = readdirSync(tmp);
      body.end(payload.subarray(cut));
      const res = await answer;
      assert.equal(res.statusCode, 201, res.body);
      const m = json<Media>(res);
      assert.equal(m.sizeBytes, wav.length);
      assert.deepEqual(readFileSync((await t.services.stores.media.load(m.id))?.storagePath ?? ''), wav);
      assert.deepEqual(swept, { temp: 0, orphans: 0 });
      assert.deepEqual(kept, [name], 'the file of the upload in flight was kept');
      assert.deepEqual(readdirSync(tmp), []);
    });
  }

  it("a transcript's file stays through a sweep while audio is attached to it, however old, and the audio takes its name once the row names the audio", async () => {
    const { orphans } = t.composed;
    assert.ok(orphans);
    const res = await call(t, t.main, { method: 'POST', url: '/v1/files', ...fileUpload(TWO_NAMES_VTT, 'talk.vtt') });
    assert.equal(res.statusCode, 201, res.body);
    const mediaId = json<{ id: string }>(res).id;
    const media = path.join(t.dataDir, 'media');
    const filesOf = () => readdirSync(media).filter((name) => name.startsWith(mediaId));
    // Uploaded a month ago, far older than either sweep's bound: its row keeps it.
    const monthAgo = (Date.now() - 30 * 24 * 3600 * 1000) / 1000;
    utimesSync(path.join(media, mediaId), monthAgo, monthAgo);
    const blobs = t.services.stores.blobs;
    const commit = blobs.commit.bind(blobs);
    let during: unknown = null;
    let kept: string[] = [];
    // A periodic sweep that runs as the audio is committed (before, the transcript was moved into tmp/ then).
    blobs.commit = async (tempPath, id, opts) => {
      during = await orphans.sweep();
      kept = filesOf();
      return commit(tempPath, id, opts);
    };
    try {
      const attached = await call(t, t.main, { method: 'POST', url: '/v1/files', ...fileUpload(wavFile(2), 'talk.wav', { mediaId }) });
      assert.equal(attached.statusCode, 201, attached.body);
    } finally {
      blobs.commit = commit;
    }
    assert.deepEqual(during, { temp: 0, orphans: 0 });
    assert.deepEqual(kept, [mediaId], "the transcript's file was in place while the sweep ran");
    // Stored beside it, then given the media's plain name over it (files/plain-names.ts).
    assert.equal(path.basename((await t.services.stores.media.load(mediaId))?.storagePath ?? ''), mediaId);
    assert.deepEqual(filesOf(), [mediaId]);
  });

  it('gives the plain name to audio that a row was left naming by a name beside (a crash mid-attach), however old', async () => {
    const { orphans } = t.composed;
    assert.ok(orphans);
    const res = await call(t, t.main, { method: 'POST', url: '/v1/files', ...fileUpload(TWO_NAMES_VTT.replace('tonight', 'tonight, again'), 'talk.vtt') });
    assert.equal(res.statusCode, 201, res.body);
    const mediaId = json<{ id: string }>(res).id;
    const dir = path.join(t.dataDir, 'media');
    const blobs = t.services.stores.blobs;
    const placePlain = blobs.placePlain.bind(blobs);
    // The attach's own step fails, as a crash would leave it.
    blobs.placePlain = () => Promise.reject(new Error('crashed'));
    const audio = wavFile(2);
    try {
      const attached = await call(t, t.main, { method: 'POST', url: '/v1/files', ...fileUpload(audio, 'talk.wav', { mediaId }) });
      assert.equal(attached.statusCode, 201, attached.body);
    } finally {
      blobs.placePlain = placePlain;
    }
    const beside = path.basename((await t.services.stores.media.load(mediaId))?.storagePath ?? '');
    assert.notEqual(beside, mediaId);
    // Left a month: a process of a version before names beside would have removed it by now.
    const monthAgo = (Date.now() - 30 * 24 * 3600 * 1000) / 1000;
    utimesSync(path.join(dir, beside), monthAgo, monthAgo);
    assert.deepEqual(await orphans.sweep(), { temp: 0, orphans: 0 });
    assert.equal(path.basename((await t.services.stores.media.load(mediaId))?.storagePath ?? ''), mediaId);
    assert.deepEqual(readdirSync(dir).filter((name) => name.startsWith(mediaId)), [mediaId]);
    assert.ok(readFileSync(path.join(dir, mediaId)).equals(audio), "the audio, over the transcript's file");
  });

  it('the start-up sweep keeps a 5-minute-old orphan (an upload of another process may be inserting its row) and removes a 2-hour-old one', async () => {
    storedAgo(t.dataDir, 'med_fiveminutes', 5 * 60 * 1000);
    storedAgo(t.dataDir, 'med_twohours', 2 * 3600 * 1000);
    const { blobs, media } = t.services.stores;
    assert.deepEqual(await sweepAtStart(blobs, (ids) => media.filesWithRows(ids), t.composed.startSweeps), { temp: 0, orphans: 1 });
    assert.ok(readdirSync(path.join(t.dataDir, 'media')).includes('med_fiveminutes'));
    assert.ok(!readdirSync(path.join(t.dataDir, 'media')).includes('med_twohours'));
  });

  it('an API-only process leaves the sweep to the workers', async () => {
    const api = await buildTestApp({ ROLE: 'api' });
    try {
      assert.equal(api.composed.orphans, null);
      // So a failed start-up sweep tells only of the next start (blob-store.test.ts has the wording).
      assert.equal(api.composed.startSweeps.againEveryMs, null);
      assert.equal(t.composed.startSweeps.againEveryMs, 3600 * 1000);
    } finally {
      await api.close();
    }
  });
});
