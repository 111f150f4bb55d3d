// Content links on PostgreSQL: the embedded store's rules (content-links.store.ts), same table.
import { hashKey, type KeyScope } from '../workspace/workspace.store.ts';
import { randomToken } from '../ids.ts';
import type { PgDb } from '../store/pg.ts';
import { CONTENT_LINK_PREFIX, type ContentLinkStore, type LinkCheck } from './content-links.store.ts';

export class PgContentLinkStore implements ContentLinkStore {
  private readonly db: PgDb;
  constructor(db: PgDb) {
    this.db = db;
  }

  async create(input: { workspaceId: string; mediaId: string; keyId: string; expiresAt: number }, now = Date.now()): Promise<string> {
    const token = `${CONTENT_LINK_PREFIX}${randomToken(40)}`;
    await this.db.transaction(async (tx) => {
      await tx.run('DELETE FROM content_links WHERE expires_at <= $1', now);
      await tx.run(
        'INSERT INTO content_links (token_hash, workspace_id, media_id, key_id, expires_at) VALUES ($1, $2, $3, $4, $5)',
        hashKey(token), input.workspaceId, input.mediaId, input.keyId, input.expiresAt,
      );
    });
    return token;
  }

  async check(token: string, mediaId: string, now = Date.now()): Promise<LinkCheck> {
    const r = await this.db.get<{ workspace_id: string; media_id: string; key_id: string; expires_at: number; scope: KeyScope }>(
      `SELECT l.workspace_id, l.media_id, l.key_id, l.expires_at, k.scope FROM content_links l
       JOIN api_keys k ON k.id = l.key_id AND k.revoked_at IS NULL WHERE l.token_hash = $1`,
      hashKey(token),
    );
    if (!r) return { ok: false, reason: 'unknown' };
    if (r.media_id !== mediaId) return { ok: false, reason: 'other_media' };
    if (r.expires_at <= now) return { ok: false, reason: 'expired' };
    return { ok: true, workspaceId: r.workspace_id, keyId: r.key_id, scope: r.scope };
  }
}
