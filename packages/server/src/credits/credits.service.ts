// The workspace's credits as the API shows them (decisions §10).
import { ApiError } from '../errors.ts';
import type { AuthContext } from '../workspace/auth.ts';
import { InvalidCursor } from '../store/cursor.ts';
import type { CreditBalance, CreditTransaction, CreditStore } from './credits.store.ts';
import type { CreditTransactionQuery } from './credits.schemas.ts';

export class CreditsService {
  private readonly store: CreditStore;
  constructor(store: CreditStore) {
    this.store = store;
  }

  async balance(auth: AuthContext): Promise<CreditBalance> {
    const b = await this.store.balance(auth.workspaceId);
    if (!b) throw new ApiError('NOT_FOUND', 'No such workspace.');
    return b;
  }

  async transactions(auth: AuthContext, query: CreditTransactionQuery): Promise<{ data: CreditTransaction[]; nextCursor: string | null }> {
    try {
      return await this.store.transactions(auth.workspaceId, query.limit ?? 20, query.cursor);
    } catch (err) {
      if (err instanceof InvalidCursor) throw new ApiError('VALIDATION_FAILED', err.message, { details: [{ path: '/query/cursor', message: err.message }] });
      throw err;
    }
  }
}
