// The credit ledger of decisions §10, as synchronous steps that run inside the caller's store
// transaction, so that work and its payment commit or roll back together. balance counts what
// the workspace owns; reserved what running work has set aside; available = balance - reserved.
import type { SqliteDb } from '../store/sqlite.ts';
import { newId, nowIso } from '../ids.ts';

export type CreditKind = 'grant' | 'reserve' | 'charge' | 'release';

export interface CreditRef {
  jobId?: string | null;
  mediaId?: string | null;
}

export class InsufficientCredits extends Error {
  readonly needed: number;
  readonly available: number;
  constructor(needed: number, available: number) {
    super(`needs ${needed} credits, ${available} available`);
    this.name = 'InsufficientCredits';
    this.needed = needed;
    this.available = available;
  }
}

function record(db: SqliteDb, workspaceId: string, kind: CreditKind, amount: number, balanceAfter: number, ref: CreditRef): void {
  db.run(
    `INSERT INTO credit_transactions (id, workspace_id, kind, amount, balance_after, job_id, media_id, created_at, seq)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    newId('txn'), workspaceId, kind, amount, balanceAfter, ref.jobId ?? null, ref.mediaId ?? null, nowIso(), db.nextSeq(),
  );
}

function balances(db: SqliteDb, workspaceId: string): { balance: number; reserved: number } {
  const row = db.get<{ balance: number; reserved: number }>('SELECT balance, reserved FROM workspaces WHERE id = ?', workspaceId);
  if (!row) throw new Error(`workspace ${workspaceId} does not exist`);
  return row;
}

export function grantCredits(db: SqliteDb, workspaceId: string, amount: number): number {
  const { balance } = balances(db, workspaceId);
  const after = balance + amount;
  db.run('UPDATE workspaces SET balance = ?, updated_at = ? WHERE id = ?', after, nowIso(), workspaceId);
  record(db, workspaceId, 'grant', amount, after, {});
  return after;
}

export function reserveCredits(db: SqliteDb, workspaceId: string, amount: number, ref: CreditRef): void {
  if (amount <= 0) return;
  const { balance, reserved } = balances(db, workspaceId);
  if (balance - reserved < amount) throw new InsufficientCredits(amount, balance - reserved);
  db.run('UPDATE workspaces SET reserved = reserved + ?, updated_at = ? WHERE id = ?', amount, nowIso(), workspaceId);
  record(db, workspaceId, 'reserve', amount, balance, ref);
}

/** Turns a reservation into a charge: the balance drops by the amount, the reservation ends. */
export function chargeCredits(db: SqliteDb, workspaceId: string, amount: number, ref: CreditRef): void {
  if (amount <= 0) return;
  const { balance } = balances(db, workspaceId);
  const after = balance - amount;
  db.run('UPDATE workspaces SET balance = ?, reserved = MAX(reserved - ?, 0), updated_at = ? WHERE id = ?', after, amount, nowIso(), workspaceId);
  record(db, workspaceId, 'charge', amount, after, ref);
}

export function releaseCredits(db: SqliteDb, workspaceId: string, amount: number, ref: CreditRef): void {
  if (amount <= 0) return;
  const { balance } = balances(db, workspaceId);
  db.run('UPDATE workspaces SET reserved = MAX(reserved - ?, 0), updated_at = ? WHERE id = ?', amount, nowIso(), workspaceId);
  record(db, workspaceId, 'release', amount, balance, ref);
}
