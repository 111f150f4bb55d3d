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

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomToken(24)}`;
}

export function nowIso(ms: number = Date.now()): string {
  return new Date(ms).toISOString();
}
