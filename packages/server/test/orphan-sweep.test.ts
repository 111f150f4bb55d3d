// The periodic sweep of stored media files without a row, as the service composes it: processes
// that run jobs sweep (asking the media store of any workspace), an API-only process does not.
// The start-up sweep keeps files as young as the periodic one does: in a cluster it runs while the
// other processes sharing MEDIA_DIR upload (it removed orphans a minute old). Temporary files of
// crashed uploads are swept periodically by their age alone. A failed start-up sweep says when
// the process sweeps again: every ORPHAN_SWEEP_SEC, or for an API-only process its next start.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sweepAtStart } from '../src/store/blob-store.ts';
import { fileUpload, wavFile, TWO_NAMES_VTT } from '../src/files/files.fixtures.testkit.ts';
import { buildTestApp, call, insertMedia, json, type TestApp } from './helpers.ts';

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

  it("a transcript moved aside into tmp/ while audio is attached to it is not taken for a stale temporary file", async () => {
    const { orphans } = t.composed;
    assert.ok(orphans);
    const res = await call(t, t.main, { method: 'POST', url: '/v1/files', ...fileUpload(TWO_NAMES_VTT, 'talk.vtt') });
    assert.equal(res.statusCode, 201, res.body);
    const mediaId = json<{ id: string }>(res).id;
    // Uploaded a month ago: the time it keeps when renamed aside, unless touched.
    const monthAgo = (Date.now() - 30 * 24 * 3600 * 1000) / 1000;
    utimesSync(path.join(t.dataDir, 'media', mediaId), monthAgo, monthAgo);
    const blobs = t.services.stores.blobs;
    const commit = blobs.commit.bind(blobs);
    let during: unknown = null;
    let aside: string[] = [];
    // A periodic sweep that runs while the audio is committed, the transcript aside.
    blobs.commit = async (tempPath, id) => {
      during = await orphans.sweep();
      aside = readdirSync(path.join(t.dataDir, 'tmp')).filter((name) => name.endsWith('.transcript'));
      return commit(tempPath, id);
    };
    try {
      const attached = await call(t, t.main, { method: 'POST', url: '/v1/files', ...fileUpload(wavFile(2), 'talk.wav', { mediaId }) });
      assert.equal(attached.statusCode, 201, attached.body);
    } finally {
      blobs.commit = commit;
    }
    assert.deepEqual(during, { temp: 0, orphans: 0 });
    assert.equal(aside.length, 1, 'the transcript was aside while the sweep ran, and is still');
  });

  it('the start-up sweep keeps a 5-minute-old orphan (an upload of another process may be inserting its row) and removes a 2-hour-old one', async () => {
    storedAgo(t.dataDir, 'med_fiveminutes', 5 * 60 * 1000);
    storedAgo(t.dataDir, 'med_twohours', 2 * 3600 * 1000);
    const { blobs, media } = t.services.stores;
    assert.deepEqual(await sweepAtStart(blobs, (ids) => media.idsWithRows(ids), t.composed.startSweeps), { temp: 0, orphans: 1 });
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
