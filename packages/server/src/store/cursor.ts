// Opaque list cursors: the position of the last item seen, encoded so that clients treat it
// as a token rather than a number to do arithmetic on.
export function encodeCursor(seq: number): string {
  return Buffer.from(`s:${seq}`).toString('base64url');
}

export class InvalidCursor extends Error {}

export function decodeCursor(cursor: string): number {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const m = /^s:(\d{1,20})$/.exec(text);
  if (!m) throw new InvalidCursor('cursor is not one this API returned');
  return Number(m[1]);
}
