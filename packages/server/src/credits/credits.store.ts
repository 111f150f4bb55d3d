// Reading the credit ledger of decisions §10: the workspace's balances and its transactions,
// newest first. Writes happen only through credits.ledger.ts, inside the work they pay for.
import type { Sql } from '../store/sql.ts';
import { decodeCursor, encodeCursor } from '../store/cursor.ts';
import { grantCredits, type CreditKind } from './credits.ledger.ts';

export interface CreditBalance {
  balance: number;
  reserved: number;
  available: number;
  updatedAt: string;
}

export interface CreditTransaction {
  id: string;
  kind: CreditKind;
  amount: number;
  balanceAfter: number;
  jobId?: string;
  mediaId?: string;
  createdAt: string;
}

export interface CreditStore {
  balance(workspaceId: string): Promise<CreditBalance | null>;
  /** Throws InvalidCursor for a cursor this API did not hand out. */
  transactions(workspaceId: string, limit: number, cursor: string | undefined): Promise<{ data: CreditTransaction[]; nextCursor: string | null }>;
  /** Adds credits to the workspace (the operator's `rapport credits grant`); answers the new balance. */
  grant(workspaceId: string, amount: number): Promise<number>;
}

export interface TxRow {
  id: string;
  kind: CreditKind;
  amount: number;
  balance_after: number;
  job_id: string | null;
  media_id: string | null;
  created_at: string;
  seq: number;
}

export const toTransaction = (r: TxRow): CreditTransaction => ({
  id: r.id,
  kind: r.kind,
  amount: r.amount,
  balanceAfter: r.balance_after,
  ...(r.job_id !== null ? { jobId: r.job_id } : {}),
  ...(r.media_id !== null ? { mediaId: r.media_id } : {}),
  createdAt: r.created_at,
});

export class SqlCreditStore implements CreditStore {
  private readonly db: Sql;
  constructor(db: Sql) {
    this.db = db;
  }

  async balance(workspaceId: string): Promise<CreditBalance | null> {
    const r = await this.db.get<{ balance: number; reserved: number; updated_at: string }>('SELECT balance, reserved, updated_at FROM workspaces WHERE id = ?', workspaceId);
    return r ? { balance: r.balance, reserved: r.reserved, available: r.balance - r.reserved, updatedAt: r.updated_at } : null;
  }

  async transactions(workspaceId: string, limit: number, cursor: string | undefined): Promise<{ data: CreditTransaction[]; nextCursor: string | null }> {
    const before = cursor ? decodeCursor(cursor) : Number.MAX_SAFE_INTEGER;
    const rows = await this.db.all<TxRow>('SELECT * FROM credit_transactions WHERE workspace_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?', workspaceId, before, limit + 1);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return { data: page.map(toTransaction), nextCursor: rows.length > limit && last ? encodeCursor(last.seq) : null };
  }

  async grant(workspaceId: string, amount: number): Promise<number> {
    return this.db.transaction((tx) => grantCredits(tx, workspaceId, amount));
  }
}

