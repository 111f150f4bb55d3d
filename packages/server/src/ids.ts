// Opaque identifiers of decisions §1: a prefix, `_`, then 24 random base62 characters.
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export type IdPrefix = 'ws' | 'key' | 'med' | 'job' | 'mat' | 'rep' | 'ent' | 'evt' | 'dlv' | 'fb' | 'txn' | 'req';

export function randomToken(length: number): string {
  // Rejection sampling keeps every character equally likely (256 is not a multiple of 62).
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

// Ids are drawn from a pool of random bytes filled 4 KiB at a time: one `randomBytes` call per
// id cost as much as a store lookup (two ids per job creation, one per request). Secrets (keys,
// signing secrets, link tokens) keep `randomToken`, so that no byte of one waits in memory.
let idPool = Buffer.alloc(0);
let idPos = 0;

export function newId(prefix: IdPrefix): string {
  let out = `${prefix}_`;
  const end = out.length + 24;
  while (out.length < end) {
    if (idPos >= idPool.length) {
      idPool = randomBytes(4096);
      idPos = 0;
    }
    const byte = idPool[idPos++] as number;
    // Rejection sampling, as in randomToken.
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return out;
}

export function nowIso(ms: number = Date.now()): string {
  return new Date(ms).toISOString();
}
