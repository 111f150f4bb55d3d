// The start-up sweep of temporary upload files when several hosts share the media folder: a
// partial upload of a crashed process of this host goes, one of another host is judged by its
// age only (its pid means nothing here), and anything old enough goes.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FileBlobStore } from './blob-store.ts';

describe('FileBlobStore.sweepTemp', () => {
  it("removes this host's crashed uploads, keeps another host's until they are old", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'rapport-blobs-'));
    try {
      const blobs = new FileBlobStore(dir);
      const mine = blobs.createTemp();
      mine.stream.end('x');
      await new Promise<void>((r) => mine.stream.once('close', () => r()));
      const ownHost = /^upload-h([0-9a-f]{8})-/.exec(path.basename(mine.path))?.[1];
      assert.ok(ownHost, 'the name carries the host');
      const deadPid = 2 ** 22 + 12345; // above Linux's pid_max: no such process
      const tmp = path.join(dir, 'tmp');
      const crashedHere = `upload-h${ownHost}-${deadPid}-1-aaaa`;
      const otherHost = `upload-h${ownHost === '00000000' ? '11111111' : '00000000'}-${deadPid}-1-bbbb`;
      const oldOther = `upload-h${ownHost === '00000000' ? '11111111' : '00000000'}-${deadPid}-1-cccc`;
      for (const f of [crashedHere, otherHost, oldOther]) writeFileSync(path.join(tmp, f), 'x');
      const old = (Date.now() - 2 * 3600 * 1000) / 1000;
      utimesSync(path.join(tmp, oldOther), old, old);
      // This process's own file counts as an earlier process's with its pid (the sweep runs at start).
      assert.equal(await blobs.sweepTemp(3600 * 1000), 3);
      assert.deepEqual(readdirSync(tmp), [otherHost]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
