// Content links: what lets a browser's <audio> or <video> element stream one media's bytes. Such
// an element cannot send the Service-Api-Key header, and a key must never travel in a URL, so an
// authenticated POST mints a short-lived random token for one media (the S3 presigned-URL
// pattern). The token is stored hashed, like keys; it reads that media's content and nothing
// else, in the workspace and with the scope of the key that minted it, and dies when it expires,
// when that key is revoked, or when the media is deleted.
import { hashKey, type KeyScope } from '../workspace/workspace.store.ts';
import { randomToken } from '../ids.ts';
import type { Sql } from '../store/sql.ts';

export const CONTENT_LINK_PREFIX = 'rl_';

export type LinkCheck =
  | { ok: true; workspaceId: string; keyId: string; scope: KeyScope }
  | { ok: false; reason: 'unknown' | 'expired' | 'other_media' };

export interface ContentLinkStore {
  /** A new token for the media, valid until `expiresAt` (ms); links that expired are dropped. */
  create(input: { workspaceId: string; mediaId: string; keyId: string; expiresAt: number }, now?: number): Promise<string>;
  /** What a token may read: this media, in its key's workspace, while key and link live. */
  check(token: string, mediaId: string, now?: number): Promise<LinkCheck>;
}

export class SqlContentLinkStore implements ContentLinkStore {
  private readonly db: Sql;
  constructor(db: Sql) {
    this.db = db;
  }

  /** A new token for the media, valid until `expiresAt` (ms); links that expired are dropped. */
  async create(input: { workspaceId: string; mediaId: string; keyId: string; expiresAt: number }, now = Date.now()): Promise<string> {
    const token = `${CONTENT_LINK_PREFIX}${randomToken(40)}`;
    await this.db.transaction(async (tx) => {
      await tx.run('DELETE FROM content_links WHERE expires_at <= ?', now);
      await tx.run(
        'INSERT INTO content_links (token_hash, workspace_id, media_id, key_id, expires_at) VALUES (?, ?, ?, ?, ?)',
        hashKey(token), input.workspaceId, input.mediaId, input.keyId, input.expiresAt,
      );
    });
    return token;
  }

  /** What a token may read: this media, in its key's workspace, while key and link live. */
  async check(token: string, mediaId: string, now = Date.now()): Promise<LinkCheck> {
    const r = await this.db.get<{ workspace_id: string; media_id: string; key_id: string; expires_at: number; scope: KeyScope }>(
      `SELECT l.workspace_id, l.media_id, l.key_id, l.expires_at, k.scope FROM content_links l
       JOIN api_keys k ON k.id = l.key_id AND k.revoked_at IS NULL WHERE l.token_hash = ?`,
      hashKey(token),
    );
    if (!r) return { ok: false, reason: 'unknown' };
    if (r.media_id !== mediaId) return { ok: false, reason: 'other_media' };
    if (r.expires_at <= now) return { ok: false, reason: 'expired' };
    return { ok: true, workspaceId: r.workspace_id, keyId: r.key_id, scope: r.scope };
  }
}
