// A fresh data folder for one blob-store test, removed after it whatever happens.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

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
