// Opaque list cursors: the position of the last item seen. The position is a store-wide ordering
// number, which would tell a client how many items every workspace together created between two
// of its reads; so it is encrypted, one AES block (the number and a fixed tag) under a key kept in
// the store (StoreBackend.serviceKey) and shared by every process, which makes a cursor 22
// characters of noise that any process of the service can read back, and that no client can make
// or alter (a block whose tag does not come back is refused). The plain cursors of before
// (base64url of "s:<number>") are refused (issue 32, finding 3): a client could write any position
// in them and binary-search the store-wide number; a walk begun before the upgrade starts again.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const TAG = Buffer.from('rapport1');
/**
 * The key cursors are made with, and every key installed in this process, newest first, which
 * cursors are read with: one in a service; several where tests run several services in one
 * process. Until the service installs its store's key (compose.ts): one this process alone reads.
 */
let keys: Buffer[] = [randomBytes(32)];

/** The key of every process of this service (StoreBackend.serviceKey('cursor')): 32 bytes. */
export function useCursorKey(k: Buffer): void {
  if (k.length !== 32) throw new Error('a cursor key is 32 bytes');
  keys = [k, ...keys.filter((x) => !x.equals(k))];
}

function block(key: Buffer, data: Buffer, encrypt: boolean): Buffer {
  const c = encrypt ? createCipheriv('aes-256-ecb', key, null) : createDecipheriv('aes-256-ecb', key, null);
  c.setAutoPadding(false);
  return Buffer.concat([c.update(data), c.final()]);
}

export function encodeCursor(seq: number): string {
  const plain = Buffer.alloc(16);
  plain.writeBigUInt64BE(BigInt(seq), 0);
  TAG.copy(plain, 8);
  return block(keys[0] as Buffer, plain, true).toString('base64url');
}

export class InvalidCursor extends Error {}

export function decodeCursor(cursor: string): number {
  const raw = /^[A-Za-z0-9_-]{22}$/.test(cursor) ? Buffer.from(cursor, 'base64url') : null;
  for (const key of raw?.length === 16 ? keys : []) {
    const plain = block(key, raw as Buffer, false);
    const seq = plain.readBigUInt64BE(0);
    if (plain.subarray(8).equals(TAG) && seq <= BigInt(Number.MAX_SAFE_INTEGER)) return Number(seq);
  }
  throw new InvalidCursor('cursor is not one this API returned');
}
