// List cursors (store/cursor.ts): they read back to the position they were made from, under the
// key every process shares; they show nothing of the store-wide number (two neighbouring
// positions give unrelated text); a cursor altered or made by a client is refused; one made
// under a key installed earlier in the process (two services in one test process) is still
// read; a plain cursor of the kind handed out before they were encrypted is refused (a client
// could write any position in one).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createCipheriv, randomBytes } from 'node:crypto';
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

  it('refuse a cursor altered or made by a client; read one made under a key installed before', () => {
    const good = encodeCursor(77);
    const altered = `${good.slice(0, 10)}${good[10] === 'A' ? 'B' : 'A'}${good.slice(11)}`;
    for (const bad of [altered, 'x'.repeat(22), '', 'not a cursor', Buffer.from('s:abc').toString('base64url')]) {
      assert.throws(() => decodeCursor(bad), InvalidCursor, bad);
    }
    // Made the same way under a key never installed here (another deployment's): noise.
    const plain = Buffer.alloc(16);
    plain.writeBigUInt64BE(77n, 0);
    Buffer.from('rapport1').copy(plain, 8);
    const c = createCipheriv('aes-256-ecb', randomBytes(32), null);
    c.setAutoPadding(false);
    assert.throws(() => decodeCursor(Buffer.concat([c.update(plain), c.final()]).toString('base64url')), InvalidCursor);
    // A second service in this process installs its key: cursors of both read back.
    useCursorKey(randomBytes(32));
    const made = encodeCursor(77);
    assert.equal(decodeCursor(made), 77);
    assert.equal(decodeCursor(good), 77, 'a key installed before is still read');
    assert.notEqual(made, good);
  });

  it('refuse a plain cursor of the old kind, whose position a client can write (issue 32, finding 3)', () => {
    for (const n of ['0', '123', '999999999999999']) assert.throws(() => decodeCursor(Buffer.from(`s:${n}`).toString('base64url')), InvalidCursor, n);
  });

  it('take a key of 32 bytes only', () => {
    assert.throws(() => useCursorKey(randomBytes(16)), /32 bytes/);
  });
});
