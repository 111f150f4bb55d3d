// The free-space check before an upload is accepted (issue 20, finding 9): while the file system
// of the media directory has less than MIN_FREE_DISK_BYTES free (after the announced body), an
// upload is refused with 507 INSUFFICIENT_STORAGE before its body is written, rather than
// filling the disk that the database and every other workspace's uploads share.
import { statfs } from 'node:fs/promises';
import { ApiError } from '../http/errors.ts';

/** Bytes an unprivileged process may still write on the file system of `dir`; null when unknown. */
export async function freeBytes(dir: string): Promise<number | null> {
  try {
    const s = await statfs(dir);
    return s.bavail * s.bsize;
  } catch {
    return null;
  }
}

/** Throws 507 when storing `incomingBytes` more in `dir` would leave less than `minFreeBytes` free. */
export async function requireFreeSpace(dir: string, minFreeBytes: number, incomingBytes: number): Promise<void> {
  if (minFreeBytes <= 0) return;
  const free = await freeBytes(dir);
  if (free === null || free - incomingBytes >= minFreeBytes) return;
  throw new ApiError(
    'INSUFFICIENT_STORAGE',
    `The service's media storage is nearly full (${free} bytes free, ${minFreeBytes} kept free: MIN_FREE_DISK_BYTES); uploads are refused until room is made. Retry later.`,
  );
}
