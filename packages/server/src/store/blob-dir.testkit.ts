// A fresh data folder for one blob-store test, removed after it whatever happens.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FileBlobStore } from './blob-store.ts';

/**
 * Runs `test` in a new folder under the system's temporary one. With `withMedia`, its `media/`
 * folder is made first (the store makes it too), so that files can be laid out before a store exists.
 */
export async function inBlobDir(test: (dir: string) => Promise<void>, { withMedia = false } = {}): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rapport-blobs-'));
  if (withMedia) mkdirSync(path.join(dir, 'media'));
  try {
    await test(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Media `med_t`'s file holding 'transcript', and a file holding 'audio' committed beside it (as
 * attached audio is, under `<id>.<token>`), an hour old with `hourOld`: both paths.
 */
export async function besideTranscript(blobs: FileBlobStore, dir: string, { hourOld = false } = {}): Promise<{ own: string; beside: string }> {
  const own = path.join(dir, 'media', 'med_t');
  writeFileSync(own, 'transcript');
  const temp = blobs.createTemp();
  temp.stream.end('audio');
  await new Promise<void>((r) => temp.stream.once('close', () => r()));
  const beside = await blobs.commit(temp.path, 'med_t', { beside: true });
  if (hourOld) {
    const hourAgo = (Date.now() - 3600 * 1000) / 1000;
    utimesSync(beside, hourAgo, hourAgo);
  }
  return { own, beside };
}
