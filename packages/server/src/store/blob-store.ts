// Where uploaded files live: a folder under DATA_DIR, one file per media id. Uploads are
// written to a temporary name and renamed into place only once complete, so a crash or an
// aborted upload never leaves a partial file under a media id.
import { mkdirSync, createWriteStream, type WriteStream } from 'node:fs';
import { rename, rm, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { randomToken } from '../ids.ts';

export interface BlobStore {
  /** A new temporary file to stream an upload into. */
  createTemp(): { path: string; stream: WriteStream };
  /** Moves a completed temporary file to its permanent name; answers the permanent path. */
  commit(tempPath: string, mediaId: string): Promise<string>;
  remove(filePath: string): Promise<void>;
  /** Removes temporary files left by a crash (older than `olderThanMs`). */
  sweepTemp(olderThanMs: number): Promise<number>;
}

export class FileBlobStore implements BlobStore {
  private readonly mediaDir: string;
  private readonly tmpDir: string;

  constructor(dataDir: string) {
    this.mediaDir = path.join(dataDir, 'media');
    this.tmpDir = path.join(dataDir, 'tmp');
    mkdirSync(this.mediaDir, { recursive: true });
    mkdirSync(this.tmpDir, { recursive: true });
  }

  createTemp(): { path: string; stream: WriteStream } {
    const p = path.join(this.tmpDir, `upload-${Date.now()}-${randomToken(12)}`);
    return { path: p, stream: createWriteStream(p, { flags: 'wx' }) };
  }

  async commit(tempPath: string, mediaId: string): Promise<string> {
    const finalPath = path.join(this.mediaDir, mediaId);
    await rename(tempPath, finalPath);
    return finalPath;
  }

  async remove(filePath: string): Promise<void> {
    await rm(filePath, { force: true });
  }

  async sweepTemp(olderThanMs: number): Promise<number> {
    let removed = 0;
    for (const name of await readdir(this.tmpDir)) {
      const p = path.join(this.tmpDir, name);
      const s = await stat(p).catch(() => null);
      if (s && Date.now() - s.mtimeMs > olderThanMs) {
        await rm(p, { force: true });
        removed++;
      }
    }
    return removed;
  }
}
