// Entities on PostgreSQL (see entities.store.ts). Speakers are linked to entities when media
// analysis completes (PgMediaStore.completeAnalysis); this store reads and edits them.
import type { PgDb, PgExec } from '../store/pg.ts';
import { nowIso } from '../ids.ts';
import { decodeCursor, encodeCursor } from '../store/cursor.ts';
import { APPEARANCE_COLUMNS, APPEARANCE_FROM, toEntity, type AppearanceRow, type EntityListQuery, type EntityRecord, type EntityRow, type EntityStore } from './entities.store.ts';

export class PgEntityStore implements EntityStore {
  private readonly db: PgDb;
  constructor(db: PgDb) {
    this.db = db;
  }

  private async toEntities(rows: EntityRow[]): Promise<EntityRecord[]> {
    if (rows.length === 0) return [];
    const apps = await this.db.all<AppearanceRow & { entity_id: string }>(
      `SELECT a.entity_id, ${APPEARANCE_COLUMNS} FROM ${APPEARANCE_FROM} WHERE a.entity_id = ANY($1::text[]) ORDER BY a.media_id, a.speaker_index`,
      rows.map((r) => r.id),
    );
    return rows.map((r) => toEntity(r, apps.filter((a) => a.entity_id === r.id)));
  }

  async get(workspaceId: string, id: string): Promise<EntityRecord | null> {
    const r = await this.db.get<EntityRow>('SELECT * FROM entities WHERE id = $1 AND workspace_id = $2', id, workspaceId);
    return r ? ((await this.toEntities([r]))[0] ?? null) : null;
  }

  async exists(workspaceId: string, id: string): Promise<boolean> {
    return (await this.db.get('SELECT 1 AS x FROM entities WHERE id = $1 AND workspace_id = $2', id, workspaceId)) !== undefined;
  }

  async list(workspaceId: string, q: EntityListQuery): Promise<{ data: EntityRecord[]; nextCursor: string | null }> {
    const before = q.cursor ? decodeCursor(q.cursor) : Number.MAX_SAFE_INTEGER;
    const rows = await this.db.all<EntityRow>(
      `SELECT * FROM entities WHERE workspace_id = $1 AND seq < $2
       AND ($3::text IS NULL OR EXISTS (SELECT 1 FROM json_array_elements_text(tags_json::json) AS t(value) WHERE lower(t.value) = lower($3::text)))
       AND ($4::text IS NULL OR strpos(lower(COALESCE(label, '')), lower($4::text)) > 0)
       AND ($5::boolean OR EXISTS (SELECT 1 FROM appearances a WHERE a.entity_id = entities.id))
       ORDER BY seq DESC LIMIT $6`,
      workspaceId, before, q.tag ?? null, q.q ?? null, q.includeEmpty === true, q.limit + 1,
    );
    const page = rows.slice(0, q.limit);
    const last = page[page.length - 1];
    return { data: await this.toEntities(page), nextCursor: rows.length > q.limit && last ? encodeCursor(last.seq) : null };
  }

  async voiceprints(workspaceId: string, exceptMediaId = ''): Promise<{ entityId: string; voiceprint: number[]; appearances: number }[]> {
    const rows = await this.db.all<{ id: string; voiceprint_json: string; n: number }>(
      `SELECT e.id, e.voiceprint_json, (SELECT COUNT(DISTINCT a.media_id) FROM appearances a WHERE a.entity_id = e.id AND a.media_id <> $1) AS n
       FROM entities e WHERE e.workspace_id = $2 AND e.voiceprint_json IS NOT NULL`,
      exceptMediaId, workspaceId,
    );
    return rows.map((r) => ({ entityId: r.id, voiceprint: JSON.parse(r.voiceprint_json) as number[], appearances: r.n }));
  }

  async labels(workspaceId: string, ids: string[]): Promise<Record<string, { label: string | null; tags: string[] }>> {
    const out: Record<string, { label: string | null; tags: string[] }> = {};
    const rows = await this.db.all<EntityRow>('SELECT * FROM entities WHERE id = ANY($1::text[]) AND workspace_id = $2', [...new Set(ids)], workspaceId);
    for (const r of rows) out[r.id] = { label: r.label, tags: JSON.parse(r.tags_json) as string[] };
    return out;
  }

  async setLabel(workspaceId: string, id: string, label: string | null): Promise<EntityRecord | null> {
    await this.db.run('UPDATE entities SET label = $1, updated_at = $2 WHERE id = $3 AND workspace_id = $4', label, nowIso(), id, workspaceId);
    return this.get(workspaceId, id);
  }

  /** Rewrites the entity's tags under a row lock, so that two edits at once both count. */
  private async editTags(workspaceId: string, id: string, edit: (tags: string[]) => string[]): Promise<EntityRecord | null> {
    const found = await this.db.transaction(async (tx) => {
      const r = await tx.get<EntityRow>('SELECT * FROM entities WHERE id = $1 AND workspace_id = $2 FOR UPDATE', id, workspaceId);
      if (!r) return false;
      await tx.run('UPDATE entities SET tags_json = $1, updated_at = $2 WHERE id = $3', JSON.stringify(edit(JSON.parse(r.tags_json) as string[])), nowIso(), id);
      return true;
    });
    return found ? this.get(workspaceId, id) : null;
  }

  async addTags(workspaceId: string, id: string, tags: string[]): Promise<EntityRecord | null> {
    return this.editTags(workspaceId, id, (current) => {
      const merged = [...current];
      for (const t of tags) if (!merged.includes(t)) merged.push(t);
      return merged;
    });
  }

  async removeTag(workspaceId: string, id: string, tag: string): Promise<EntityRecord | null> {
    return this.editTags(workspaceId, id, (current) => current.filter((t) => t !== tag));
  }

  async merge(workspaceId: string, into: string, from: string[]): Promise<EntityRecord | null> {
    await this.db.transaction(async (tx: PgExec) => {
      const target = await tx.get<EntityRow>('SELECT * FROM entities WHERE id = $1 AND workspace_id = $2 FOR UPDATE', into, workspaceId);
      if (!target) return;
      const tags = JSON.parse(target.tags_json) as string[];
      let label = target.label;
      for (const id of from) {
        if (id === into) continue;
        const src = await tx.get<EntityRow>('SELECT * FROM entities WHERE id = $1 AND workspace_id = $2 FOR UPDATE', id, workspaceId);
        if (!src) continue;
        for (const t of JSON.parse(src.tags_json) as string[]) if (!tags.includes(t)) tags.push(t);
        label ??= src.label;
        await tx.run('UPDATE appearances SET entity_id = $1 WHERE entity_id = $2', into, id);
        await tx.run('DELETE FROM entities WHERE id = $1', id);
      }
      await tx.run('UPDATE entities SET tags_json = $1, label = $2, updated_at = $3 WHERE id = $4', JSON.stringify(tags), label, nowIso(), into);
    });
    return this.get(workspaceId, into);
  }
}
