// The periodic sweep of stored media files without a row, as the service composes it: processes
// that run jobs sweep (asking the media store of any workspace), an API-only process does not.
// The start-up sweep keeps files as young as the periodic one does: in a cluster it runs while the
// other processes sharing MEDIA_DIR upload (it removed orphans a minute old).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sweepAtStart } from '../src/store/blob-store.ts';
import { buildTestApp, insertMedia, type TestApp } from './helpers.ts';

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
    assert.equal(await t.composed.orphans.sweep(), 1);
    assert.deepEqual(readdirSync(media).sort(), [mine, theirs].sort());
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
    } finally {
      await api.close();
    }
  });
});
