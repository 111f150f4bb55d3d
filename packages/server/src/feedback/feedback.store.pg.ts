// Feedback on results, on PostgreSQL (see feedback.store.ts).
import type { PgDb } from '../store/pg.ts';
import { newId, nowIso } from '../ids.ts';
import { decodeCursor, encodeCursor } from '../store/cursor.ts';
import { toFeedback, type FeedbackRecord, type FeedbackRow, type FeedbackStore } from './feedback.store.ts';

export class PgFeedbackStore implements FeedbackStore {
  private readonly db: PgDb;
  constructor(db: PgDb) {
    this.db = db;
  }

  async insert(workspaceId: string, input: { resultId: string; rating: number; comment: string | null }): Promise<FeedbackRecord> {
    const row = await this.db.get<FeedbackRow>(
      'INSERT INTO feedback (id, workspace_id, result_id, rating, comment, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *',
      newId('fb'), workspaceId, input.resultId, input.rating, input.comment, nowIso(),
    );
    return toFeedback(row as FeedbackRow);
  }

  async list(workspaceId: string, limit: number, cursor: string | undefined): Promise<{ data: FeedbackRecord[]; nextCursor: string | null }> {
    const before = cursor ? decodeCursor(cursor) : Number.MAX_SAFE_INTEGER;
    const rows = await this.db.all<FeedbackRow>('SELECT * FROM feedback WHERE workspace_id = $1 AND seq < $2 ORDER BY seq DESC LIMIT $3', workspaceId, before, limit + 1);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return { data: page.map(toFeedback), nextCursor: rows.length > limit && last ? encodeCursor(last.seq) : null };
  }
}
