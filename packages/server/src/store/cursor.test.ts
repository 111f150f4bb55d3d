// List cursors (store/cursor.ts): they read back to the position they were made from, under the
// key every process shares; they show nothing of the store-wide number (two neighbouring
// positions give unrelated text); a cursor altered, made by a client or under another key is
// refused; one handed out before they were encrypted is still read.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { decodeCursor, encodeCursor, InvalidCursor, useCursorKey } from './cursor.ts';

describe('list cursors', () => {
  useCursorKey(randomBytes(32));

  it('read back to their position, and show nothing of it', () => {
    for (const seq of [0, 1, 2, 41, 1_000_000, Number.MAX_SAFE_INTEGER]) assert.equal(decodeCursor(encodeCursor(seq)), seq);
    const [a, b] = [encodeCursor(1000), encodeCursor(1001)];
    assert.match(a, /^[A-Za-z0-9_-]{22}$/);
    assert.ok(!Buffer.from(a, 'base64url').toString('latin1').includes('1000'));
    let same = 0;
    for (let i = 0; i < 22; i++) if (a[i] === b[i]) same++;
    assert.ok(same < 6, `${same} of 22 characters shared by the cursors of two neighbouring positions`);
  });

  it('refuse a cursor altered, made by a client, or made under another key', () => {
    const good = encodeCursor(77);
    const altered = `${good.slice(0, 10)}${good[10] === 'A' ? 'B' : 'A'}${good.slice(11)}`;
    for (const bad of [altered, 'x'.repeat(22), '', 'not a cursor', Buffer.from('s:abc').toString('base64url')]) {
      assert.throws(() => decodeCursor(bad), InvalidCursor, bad);
    }
    useCursorKey(randomBytes(32));
    assert.throws(() => decodeCursor(good), InvalidCursor);
  });

  it('still read one handed out before they were encrypted', () => {
    assert.equal(decodeCursor(Buffer.from('s:123').toString('base64url')), 123);
  });

  it('take a key of 32 bytes only', () => {
    assert.throws(() => useCursorKey(randomBytes(16)), /32 bytes/);
  });
});
