// The free-space floor of uploads (issue 20, finding 9): while the file system of the media
// directory would have less than MIN_FREE_DISK_BYTES free, an upload is refused with 507
// INSUFFICIENT_STORAGE, rather than filling the disk that the database and every other
// workspace's uploads share. It was checked once, against Content-Length, so chunked uploads (no
// length) and concurrent ones (each saw the same free space) filled a small disk (issue 32,
// finding 6). Now `DiskSpaceGuard` counts the bytes in flight: an upload's announced length is
// reserved when it is admitted, and every chunk is checked before it is written against the free
// space (measured at most every MEASURE_MS) less what this process wrote since and still expects.
// An upload whose announced length does not fit is still admitted, with no room: its body is read
// and hashed but nothing written, and it is refused once its bytes are known to be new, because
// bytes the workspace already has take no room (decisions §18: a duplicate answers 200 even on a
// nearly full disk, as it does at the storage quota).
import { statfs } from 'node:fs/promises';
import { ApiError } from '../errors.ts';

/** Bytes an unprivileged process may still write on the file system of `dir`; null when unknown. */
export async function freeBytes(dir: string): Promise<number | null> {
  try {
    const s = await statfs(dir);
    return s.bavail * s.bsize;
  } catch {
    return null;
  }
}

/** How long a measurement of the free space stands in for the disk (plus what was written since). */
const MEASURE_MS = 200;

/** One admitted upload's share of the guard. */
export interface UploadSpace {
  /** Before `n` more bytes are written: throws 507 when they would cross the floor (always, for an upload admitted with no room). */
  beforeWrite(n: number): Promise<void>;
  /** The upload ended (kept or not): what it announced and did not write is no longer expected. */
  release(): void;
}

const UNGUARDED: UploadSpace = { beforeWrite: async () => undefined, release: () => undefined };

/** An upload admitted with no room: every write is refused with `refusal`, and nothing was reserved. */
function noRoom(refusal: ApiError): UploadSpace {
  return {
    beforeWrite: async () => {
      throw refusal;
    },
    release: () => undefined,
  };
}

export class DiskSpaceGuard {
  readonly #dir: string;
  readonly #minFree: number;
  readonly #measureFree: (dir: string) => Promise<number | null>;
  /** Bytes admitted uploads announced and have not written yet. */
  #pending = 0;
  #free: number | null = null;
  #measuredAt = 0;
  /** Bytes written by this process's uploads since the last measurement. */
  #writtenSince = 0;

  /** `measureFree`: the free bytes of `dir`'s file system (statfs; tests simulate a small disk). */
  constructor(dir: string, minFreeBytes: number, measureFree: (dir: string) => Promise<number | null> = freeBytes) {
    this.#dir = dir;
    this.#minFree = minFreeBytes;
    this.#measureFree = measureFree;
  }

  /**
   * Admits an upload that announced `announced` bytes (0 when unknown). When they would cross the
   * floor, it is admitted with no room: nothing is reserved and its first write throws the 507.
   */
  async admit(announced: number): Promise<UploadSpace> {
    if (this.#minFree <= 0) return UNGUARDED;
    await this.#measure(true);
    const refusal = this.#refusal(announced);
    if (refusal) return noRoom(refusal);
    this.#pending += announced;
    let left = announced;
    let released = false;
    return {
      beforeWrite: async (n) => {
        if (released) return;
        await this.#measure(false);
        const reserved = Math.min(left, n);
        left -= reserved;
        this.#pending -= reserved;
        this.#writtenSince += n;
        // The reserved part moved from expected to written; what goes beyond it must fit too, and
        // so must the whole when the disk filled from elsewhere meanwhile.
        this.#require(0);
      },
      release: () => {
        if (released) return;
        released = true;
        this.#pending -= left;
        left = 0;
      },
    };
  }

  async #measure(force: boolean): Promise<void> {
    const now = Date.now();
    if (!force && this.#free !== null && now - this.#measuredAt < MEASURE_MS) return;
    this.#free = await this.#measureFree(this.#dir);
    this.#measuredAt = now;
    this.#writtenSince = 0;
  }

  #require(more: number): void {
    const refusal = this.#refusal(more);
    if (refusal) throw refusal;
  }

  /** The 507 when `more` bytes beside those expected would cross the floor, else null. */
  #refusal(more: number): ApiError | null {
    if (this.#free === null) return null;
    const left = this.#free - this.#writtenSince - this.#pending - more;
    if (left >= this.#minFree) return null;
    return new ApiError(
      'INSUFFICIENT_STORAGE',
      `The service's media storage is nearly full (${Math.max(0, this.#free - this.#writtenSince)} bytes free, ${this.#pending + more} more expected by uploads under way, ${this.#minFree} kept free: MIN_FREE_DISK_BYTES); uploads are refused until room is made. Retry later.`,
    );
  }
}
