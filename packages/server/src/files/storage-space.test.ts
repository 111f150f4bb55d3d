// The free-space floor's accounting (issue 32, finding 6), on a simulated disk: uploads under way
// are counted when admitted (their announced length) and as they write, so concurrent uploads
// that each fit but not together are not all admitted, and an upload without a length is stopped
// once its bytes would cross the floor. One whose announced length does not fit is admitted with
// no room (its body still read and hashed, for a duplicate takes none: decisions §18), nothing
// reserved and every write refused.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DiskSpaceGuard } from './storage-space.ts';
import { ApiError } from '../errors.ts';

const MiB = 1024 * 1024;
const is507 = (err: unknown) => err instanceof ApiError && err.code === 'INSUFFICIENT_STORAGE';

/** A disk of `capacity` bytes whose used bytes the test sets. */
function disk(capacity: number) {
  const d = { used: 0, measure: async () => capacity - d.used };
  return d;
}

/** An upload admitted with no room: it reserves nothing, and its first write, however small, is refused. */
async function admittedWithNoRoom(guard: DiskSpaceGuard, announced: number, why: string): Promise<void> {
  const up = await guard.admit(announced);
  await assert.rejects(up.beforeWrite(1), is507, why);
  up.release();
}

/** An upload writes `n` bytes: asked first, then on the disk. */
async function write(d: { used: number }, up: { beforeWrite(n: number): Promise<void> }, n: number): Promise<void> {
  await up.beforeWrite(n);
  d.used += n;
}

describe('DiskSpaceGuard', () => {
  it('admits concurrent announced uploads only while they fit together, and again once one ends', async () => {
    const d = disk(10 * MiB);
    const guard = new DiskSpaceGuard('/media', 4 * MiB, d.measure);
    const a = await guard.admit(3 * MiB);
    const b = await guard.admit(3 * MiB);
    await admittedWithNoRoom(guard, 3 * MiB, 'a third would leave 1 MiB free');
    // `a` writes its bytes: they move from expected to written; still no room for a third.
    await write(d, a, 3 * MiB);
    await admittedWithNoRoom(guard, 1 * MiB, 'still no room');
    // `b` gives up before writing: what it announced is no longer expected.
    b.release();
    const c = await guard.admit(1 * MiB);
    c.release();
    a.release();
  });

  it('an upload admitted with no room reserves nothing: what fits beside it is still admitted', async () => {
    const d = disk(10 * MiB);
    const guard = new DiskSpaceGuard('/media', 4 * MiB, d.measure);
    await admittedWithNoRoom(guard, 7 * MiB, '7 MiB would leave 3');
    const up = await guard.admit(6 * MiB);
    await write(d, up, 6 * MiB);
    up.release();
  });

  it('stops an upload without a length once its bytes would cross the floor', async () => {
    const d = disk(10 * MiB);
    const guard = new DiskSpaceGuard('/media', 4 * MiB, d.measure);
    const up = await guard.admit(0);
    for (let i = 0; i < 6; i++) await write(d, up, 1 * MiB);
    await assert.rejects(up.beforeWrite(1 * MiB), is507, 'the seventh MiB would leave 3 MiB');
    up.release();
  });

  it('sees the disk fill from elsewhere while an upload is written', async () => {
    const d = disk(10 * MiB);
    const guard = new DiskSpaceGuard('/media', 4 * MiB, d.measure);
    const up = await guard.admit(2 * MiB);
    await write(d, up, 1 * MiB);
    d.used += 5 * MiB; // another process wrote; the next measurement shows it
    await new Promise((r) => setTimeout(r, 250));
    await assert.rejects(up.beforeWrite(1 * MiB), is507);
    up.release();
  });

  it('guards nothing with a floor of 0', async () => {
    const guard = new DiskSpaceGuard('/media', 0, async () => 0);
    const up = await guard.admit(100 * MiB);
    await up.beforeWrite(100 * MiB);
  });
});
