// Feedback on results (decisions §10): one row per rating, listed newest first.
import type { Sql } from '../store/sql.ts';
import { newId, nowIso } from '../ids.ts';
import { decodeCursor, encodeCursor } from '../store/cursor.ts';

export interface FeedbackRecord {
  id: string;
  resultId: string;
  rating: number;
  comment?: string;
  createdAt: string;
}

export interface FeedbackStore {
  insert(workspaceId: string, input: { resultId: string; rating: number; comment: string | null }): Promise<FeedbackRecord>;
  /** Throws InvalidCursor for a cursor this API did not hand out. */
  list(workspaceId: string, limit: number, cursor: string | undefined): Promise<{ data: FeedbackRecord[]; nextCursor: string | null }>;
}

export interface FeedbackRow {
  id: string;
  result_id: string;
  rating: number;
  comment: string | null;
  created_at: string;
  seq: number;
}

export const toFeedback = (r: FeedbackRow): FeedbackRecord => ({
  id: r.id,
  resultId: r.result_id,
  rating: r.rating,
  ...(r.comment !== null ? { comment: r.comment } : {}),
  createdAt: r.created_at,
});

export class SqlFeedbackStore implements FeedbackStore {
  private readonly db: Sql;
  constructor(db: Sql) {
    this.db = db;
  }

  async insert(workspaceId: string, input: { resultId: string; rating: number; comment: string | null }): Promise<FeedbackRecord> {
    const row = await this.db.get<FeedbackRow>(
      "INSERT INTO feedback (id, workspace_id, result_id, rating, comment, created_at, seq) VALUES (?, ?, ?, ?, ?, ?, nextval('rapport_seq')) RETURNING *",
      newId('fb'), workspaceId, input.resultId, input.rating, input.comment, nowIso(),
    );
    return toFeedback(row as FeedbackRow);
  }

  /** Throws InvalidCursor for a cursor this API did not hand out. */
  async list(workspaceId: string, limit: number, cursor: string | undefined): Promise<{ data: FeedbackRecord[]; nextCursor: string | null }> {
    const before = cursor ? decodeCursor(cursor) : Number.MAX_SAFE_INTEGER;
    const rows = await this.db.all<FeedbackRow>('SELECT * FROM feedback WHERE workspace_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?', workspaceId, before, limit + 1);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return { data: page.map(toFeedback), nextCursor: rows.length > limit && last ? encodeCursor(last.seq) : null };
  }
}
