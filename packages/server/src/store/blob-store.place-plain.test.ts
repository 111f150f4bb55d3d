// FileBlobStore.placePlain: a file committed beside its media's (attached audio, under
// `<id>.<token>`) also takes the plain name `<id>`, which every version of the service takes for a
// row's file (files/plain-names.ts): a hard link renamed over what the name held, so that it
// always holds a whole file, or a copy where the file system makes no hard links.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { besideTranscript as besideOwn, inBlobDir } from './blob-dir.testkit.ts';
import { FileBlobStore } from './blob-store.ts';

const besideTranscript = (blobs: FileBlobStore, dir: string): Promise<{ own: string; beside: string }> => besideOwn(blobs, dir, { hourOld: true });

describe('FileBlobStore.placePlain', () => {
  it('gives a file beside the plain name too, a hard link over what that name held, touched, and leaves no staged name', async () => {
    await inBlobDir(async (dir) => {
      const blobs = new FileBlobStore(dir);
      const { own, beside } = await besideTranscript(blobs, dir);
      assert.equal(await blobs.placePlain(beside, 'med_t'), own);
      assert.equal(readFileSync(own, 'utf8'), 'audio');
      assert.equal(statSync(own).ino, statSync(beside).ino, 'one file under two names');
      assert.ok(Date.now() - statSync(beside).mtimeMs < 60 * 1000, 'touched: young for the sweeps again');
      assert.deepEqual(readdirSync(path.join(dir, 'media')).sort(), ['med_t', path.basename(beside)].sort());
      // Again (another process giving it at once): the same file, nothing left over.
      assert.equal(await blobs.placePlain(beside, 'med_t'), own);
      assert.deepEqual(readdirSync(path.join(dir, 'media')).sort(), ['med_t', path.basename(beside)].sort());
      assert.equal(await blobs.placePlain(own, 'med_t'), own, 'a plain name is its own');
    });
  });

  it('copies the file where the file system makes no hard links, and a failure leaves the file beside as it was', async () => {
    await inBlobDir(async (dir) => {
      const unsupported = Object.assign(new Error('EPERM: operation not permitted, link'), { code: 'EPERM' });
      const blobs = new FileBlobStore(dir, { fs: { link: () => Promise.reject(unsupported) } });
      const { own, beside } = await besideTranscript(blobs, dir);
      assert.equal(await blobs.placePlain(beside, 'med_t'), own);
      assert.deepEqual([readFileSync(own, 'utf8'), readFileSync(beside, 'utf8')], ['audio', 'audio']);
      assert.notEqual(statSync(own).ino, statSync(beside).ino, 'a copy');
      assert.deepEqual(readdirSync(path.join(dir, 'media')).sort(), ['med_t', path.basename(beside)].sort());
      const failing = new FileBlobStore(dir, { fs: { link: () => Promise.reject(Object.assign(new Error('EIO: i/o error, link'), { code: 'EIO' })) } });
      writeFileSync(own, 'transcript');
      await assert.rejects(failing.placePlain(beside, 'med_t'), /EIO/);
      assert.deepEqual([readFileSync(own, 'utf8'), readFileSync(beside, 'utf8')], ['transcript', 'audio']);
      assert.deepEqual(readdirSync(path.join(dir, 'media')).sort(), ['med_t', path.basename(beside)].sort(), 'no staged name left');
    });
  });
});
