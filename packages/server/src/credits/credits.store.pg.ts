// Reading the credit ledger on PostgreSQL (see credits.store.ts); writes go through
// credits.ledger.pg.ts inside the work they pay for.
import type { PgDb } from '../store/pg.ts';
import { decodeCursor, encodeCursor } from '../store/cursor.ts';
import { grantCreditsPg } from './credits.ledger.pg.ts';
import { toTransaction, type CreditBalance, type CreditStore, type CreditTransaction, type TxRow } from './credits.store.ts';

export class PgCreditStore implements CreditStore {
  private readonly db: PgDb;
  constructor(db: PgDb) {
    this.db = db;
  }

  async balance(workspaceId: string): Promise<CreditBalance | null> {
    const r = await this.db.get<{ balance: number; reserved: number; updated_at: string }>('SELECT balance, reserved, updated_at FROM workspaces WHERE id = $1', workspaceId);
    return r ? { balance: r.balance, reserved: r.reserved, available: r.balance - r.reserved, updatedAt: r.updated_at } : null;
  }

  async transactions(workspaceId: string, limit: number, cursor: string | undefined): Promise<{ data: CreditTransaction[]; nextCursor: string | null }> {
    const before = cursor ? decodeCursor(cursor) : Number.MAX_SAFE_INTEGER;
    const rows = await this.db.all<TxRow>('SELECT * FROM credit_transactions WHERE workspace_id = $1 AND seq < $2 ORDER BY seq DESC LIMIT $3', workspaceId, before, limit + 1);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return { data: page.map(toTransaction), nextCursor: rows.length > limit && last ? encodeCursor(last.seq) : null };
  }

  async grant(workspaceId: string, amount: number): Promise<number> {
    return this.db.transaction((tx) => grantCreditsPg(tx, workspaceId, amount));
  }
}
