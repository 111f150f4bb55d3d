// Recording and listing feedback on the workspace's results.
import { ApiError } from '../errors.ts';
import type { AuthContext } from '../workspace/auth.ts';
import { InvalidCursor } from '../store/cursor.ts';
import type { ResultStore } from '../results/results.store.ts';
import type { FeedbackRecord, FeedbackStore } from './feedback.store.ts';
import type { FeedbackBody, FeedbackListQuery } from './feedback.schemas.ts';

export class FeedbackService {
  private readonly store: FeedbackStore;
  private readonly results: ResultStore;
  constructor(store: FeedbackStore, results: ResultStore) {
    this.store = store;
    this.results = results;
  }

  async create(auth: AuthContext, body: FeedbackBody): Promise<FeedbackRecord> {
    if (!(await this.results.exists(auth.workspaceId, body.resultId))) {
      throw new ApiError('REFERENCE_NOT_FOUND', `Result ${body.resultId} does not exist in this workspace.`, {
        details: [{ path: '/resultId', message: `result ${body.resultId} does not exist in this workspace` }],
      });
    }
    return this.store.insert(auth.workspaceId, { resultId: body.resultId, rating: body.rating, comment: body.comment ?? null });
  }

  async list(auth: AuthContext, query: FeedbackListQuery): Promise<{ data: FeedbackRecord[]; nextCursor: string | null }> {
    try {
      return await this.store.list(auth.workspaceId, query.limit ?? 20, query.cursor);
    } catch (err) {
      if (err instanceof InvalidCursor) throw new ApiError('VALIDATION_FAILED', err.message, { details: [{ path: '/query/cursor', message: err.message }] });
      throw err;
    }
  }
}
