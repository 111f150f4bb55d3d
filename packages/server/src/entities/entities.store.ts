// Entities: people tracked across media by voice. Speakers are linked to entities when media
// analysis completes (SqlMediaStore.completeAnalysis); this store reads and edits them.
import { enoughSpeech } from '@rapport/analysis';
import { jsonList, type Sql } from '../store/sql.ts';
import { nowIso } from '../ids.ts';
import { decodeCursor, encodeCursor } from '../store/cursor.ts';

export interface Appearance {
  mediaId: string;
  speakerIndex: number;
  speechSec: number;
}

export interface EntityRecord {
  id: string;
  label: string | null;
  /** The label, else "Speaker N in <first recording>" (decisions §16). */
  name: string;
  tags: string[];
  speechSec: number;
  enough: boolean;
  appearances: Appearance[];
  createdAt: string;
  updatedAt: string;
}

export interface EntityListQuery {
  limit: number;
  cursor?: string;
  tag?: string;
  q?: string;
  /** Also entities with no appearance left (decisions §16: not listed by default). */
  includeEmpty?: boolean;
}

export interface EntityStore {
  get(workspaceId: string, id: string): Promise<EntityRecord | null>;
  exists(workspaceId: string, id: string): Promise<boolean>;
  list(workspaceId: string, q: EntityListQuery): Promise<{ data: EntityRecord[]; nextCursor: string | null }>;
  /**
   * Voiceprints of every entity of the workspace, for linking new speakers, with the number of
   * media each appears in other than `exceptMediaId` (the media being linked: analysing it again
   * must not count it twice in the running mean).
   */
  voiceprints(workspaceId: string, exceptMediaId?: string): Promise<{ entityId: string; voiceprint: number[]; appearances: number }[]>;
  /** Labels and tags of the given entities, for the magic_hint resolver. */
  labels(workspaceId: string, ids: string[]): Promise<Record<string, { label: string | null; tags: string[] }>>;
  setLabel(workspaceId: string, id: string, label: string | null): Promise<EntityRecord | null>;
  addTags(workspaceId: string, id: string, tags: string[]): Promise<EntityRecord | null>;
  removeTag(workspaceId: string, id: string, tag: string): Promise<EntityRecord | null>;
  /** Moves every appearance and tag of `from` into `into`, then deletes `from`. */
  merge(workspaceId: string, into: string, from: string[]): Promise<EntityRecord | null>;
}

export interface EntityRow {
  id: string;
  workspace_id: string;
  label: string | null;
  tags_json: string;
  voiceprint_json: string | null;
  /** The automatic name given when the entity was made or first re-analysed (migration 13); null before. */
  auto_name?: string | null;
  created_at: string;
  updated_at: string;
  seq: number;
}

export interface AppearanceRow {
  media_id: string;
  speaker_index: number;
  speech_sec: number;
  /** The media's label, else its file name, and when it was uploaded (for the entity's name). */
  media_name: string | null;
  media_created: string | null;
}

/** The columns of APPEARANCE_FROM. */
export const APPEARANCE_COLUMNS = 'a.media_id, a.speaker_index, a.speech_sec, COALESCE(m.label, m.filename) AS media_name, m.created_at AS media_created';
export const APPEARANCE_FROM = 'appearances a LEFT JOIN media m ON m.id = a.media_id';

/**
 * Decisions §16: an entity without a label is named after its first appearance, never by an id.
 * The name fixed when it was made (`autoName`) wins over the appearances' present numbering, so
 * that a re-analysis that numbers the speakers differently does not rename anyone.
 */
export function entityName(label: string | null, rows: AppearanceRow[], autoName: string | null = null): string {
  if (label) return label;
  if (autoName) return autoName;
  const first = [...rows].sort((a, b) => (a.media_created ?? '').localeCompare(b.media_created ?? '') || a.speaker_index - b.speaker_index)[0];
  if (!first) return 'A person with no recording left';
  return `Speaker ${first.speaker_index + 1} in ${first.media_name ?? 'a deleted recording'}`;
}

export function toEntity(r: EntityRow, rows: AppearanceRow[]): EntityRecord {
  const appearances = rows.map((a) => ({ mediaId: a.media_id, speakerIndex: a.speaker_index, speechSec: a.speech_sec }));
  const speechSec = Math.round(appearances.reduce((s, a) => s + a.speechSec, 0) * 1000) / 1000;
  return {
    id: r.id,
    label: r.label,
    name: entityName(r.label, rows, r.auto_name ?? null),
    tags: JSON.parse(r.tags_json) as string[],
    speechSec,
    enough: enoughSpeech(speechSec),
    appearances,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export class SqlEntityStore implements EntityStore {
  private readonly db: Sql;
  constructor(db: Sql) {
    this.db = db;
  }

  private async toEntities(rows: EntityRow[]): Promise<EntityRecord[]> {
    if (rows.length === 0) return [];
    const apps = await this.db.all<AppearanceRow & { entity_id: string }>(
      `SELECT a.entity_id, ${APPEARANCE_COLUMNS} FROM ${APPEARANCE_FROM} WHERE ${this.db.dialect.inJsonList('a.entity_id')} ORDER BY a.media_id, a.speaker_index`,
      jsonList(rows.map((r) => r.id)),
    );
    return rows.map((r) => toEntity(r, apps.filter((a) => a.entity_id === r.id)));
  }

  async get(workspaceId: string, id: string): Promise<EntityRecord | null> {
    const r = await this.db.get<EntityRow>('SELECT * FROM entities WHERE id = ? AND workspace_id = ?', id, workspaceId);
    return r ? ((await this.toEntities([r]))[0] ?? null) : null;
  }

  async exists(workspaceId: string, id: string): Promise<boolean> {
    return (await this.db.get('SELECT 1 AS x FROM entities WHERE id = ? AND workspace_id = ?', id, workspaceId)) !== undefined;
  }

  async list(workspaceId: string, q: EntityListQuery): Promise<{ data: EntityRecord[]; nextCursor: string | null }> {
    const before = q.cursor ? decodeCursor(q.cursor) : Number.MAX_SAFE_INTEGER;
    const d = this.db.dialect;
    const rows = await this.db.all<EntityRow>(
      `SELECT * FROM entities WHERE workspace_id = ?1 AND seq < ?2
       AND (CAST(?3 AS TEXT) IS NULL OR ${d.jsonArrayHasText('tags_json', 'CAST(?3 AS TEXT)')})
       AND (CAST(?4 AS TEXT) IS NULL OR ${d.position('lower(CAST(?4 AS TEXT))', "lower(COALESCE(label, ''))")} > 0)
       AND (?5 = 1 OR EXISTS (SELECT 1 FROM appearances a WHERE a.entity_id = entities.id))
       ORDER BY seq DESC LIMIT ?6`,
      workspaceId, before, q.tag ?? null, q.q ?? null, q.includeEmpty === true ? 1 : 0, q.limit + 1,
    );
    const page = rows.slice(0, q.limit);
    const last = page[page.length - 1];
    return { data: await this.toEntities(page), nextCursor: rows.length > q.limit && last ? encodeCursor(last.seq) : null };
  }

  async voiceprints(workspaceId: string, exceptMediaId = ''): Promise<{ entityId: string; voiceprint: number[]; appearances: number }[]> {
    const rows = await this.db.all<{ id: string; voiceprint_json: string; n: number }>(
      `SELECT e.id, e.voiceprint_json, (SELECT COUNT(DISTINCT a.media_id) FROM appearances a WHERE a.entity_id = e.id AND a.media_id <> ?) AS n
       FROM entities e WHERE e.workspace_id = ? AND e.voiceprint_json IS NOT NULL`,
      exceptMediaId, workspaceId,
    );
    return rows.map((r) => ({ entityId: r.id, voiceprint: JSON.parse(r.voiceprint_json) as number[], appearances: r.n }));
  }

  async labels(workspaceId: string, ids: string[]): Promise<Record<string, { label: string | null; tags: string[] }>> {
    const out: Record<string, { label: string | null; tags: string[] }> = {};
    const unique = [...new Set(ids)];
    if (unique.length === 0) return out;
    const rows = await this.db.all<EntityRow>(`SELECT * FROM entities WHERE ${this.db.dialect.inJsonList('id')} AND workspace_id = ?`, jsonList(unique), workspaceId);
    for (const r of rows) out[r.id] = { label: r.label, tags: JSON.parse(r.tags_json) as string[] };
    return out;
  }

  async setLabel(workspaceId: string, id: string, label: string | null): Promise<EntityRecord | null> {
    await this.db.run('UPDATE entities SET label = ?, updated_at = ? WHERE id = ? AND workspace_id = ?', label, nowIso(), id, workspaceId);
    return this.get(workspaceId, id);
  }

  /**
   * Rewrites the entity's tags under a row lock, so that two edits at once both count. An edit that
   * changes nothing (a tag already there added, an absent one removed) writes nothing: the entity's
   * updatedAt says when it last changed.
   */
  private async editTags(workspaceId: string, id: string, edit: (tags: string[]) => string[]): Promise<EntityRecord | null> {
    const found = await this.db.transaction(async (tx) => {
      const r = await tx.get<EntityRow>(`SELECT * FROM entities WHERE id = ? AND workspace_id = ?${tx.dialect.forUpdate}`, id, workspaceId);
      if (!r) return false;
      const current = JSON.parse(r.tags_json) as string[];
      const edited = edit(current);
      if (edited.length === current.length && edited.every((t, i) => t === current[i])) return true;
      await tx.run('UPDATE entities SET tags_json = ?, updated_at = ? WHERE id = ?', JSON.stringify(edited), nowIso(), id);
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
    await this.db.transaction(async (tx) => {
      const target = await tx.get<EntityRow>(`SELECT * FROM entities WHERE id = ? AND workspace_id = ?${tx.dialect.forUpdate}`, into, workspaceId);
      if (!target) return;
      const tags = JSON.parse(target.tags_json) as string[];
      let label = target.label;
      for (const id of from) {
        if (id === into) continue;
        const src = await tx.get<EntityRow>(`SELECT * FROM entities WHERE id = ? AND workspace_id = ?${tx.dialect.forUpdate}`, id, workspaceId);
        if (!src) continue;
        for (const t of JSON.parse(src.tags_json) as string[]) if (!tags.includes(t)) tags.push(t);
        label ??= src.label;
        await tx.run('UPDATE appearances SET entity_id = ? WHERE entity_id = ?', into, id);
        await tx.run('DELETE FROM entities WHERE id = ?', id);
      }
      await tx.run('UPDATE entities SET tags_json = ?, label = ?, updated_at = ? WHERE id = ?', JSON.stringify(tags), label, nowIso(), into);
    });
    return this.get(workspaceId, into);
  }
}

