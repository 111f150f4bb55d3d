// The periodic sweep of stored media files without a row, as the service composes it: processes
// that run jobs sweep (asking the media store of any workspace), an API-only process does not.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildTestApp, insertMedia, type TestApp } from './helpers.ts';

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

  it('an API-only process leaves the sweep to the workers', async () => {
    const api = await buildTestApp({ ROLE: 'api' });
    try {
      assert.equal(api.composed.orphans, null);
    } finally {
      await api.close();
    }
  });
});
