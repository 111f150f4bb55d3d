// The credit ledger of decisions §10, as steps that run inside the caller's store transaction, so
// that work and its payment commit or roll back together. balance counts what the workspace
// owns; reserved what running work has set aside; available = balance - reserved. Each reads the
// workspace's balances FOR UPDATE (on PostgreSQL), so that two processes reserving at once see
// each other's reservation and can never spend more than is available.
import type { Sql } from '../store/sql.ts';
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

async function record(tx: Sql, workspaceId: string, kind: CreditKind, amount: number, balanceAfter: number, ref: CreditRef): Promise<void> {
  await tx.run(
    `INSERT INTO credit_transactions (id, workspace_id, kind, amount, balance_after, job_id, media_id, created_at, seq)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, nextval('rapport_seq'))`,
    newId('txn'), workspaceId, kind, amount, balanceAfter, ref.jobId ?? null, ref.mediaId ?? null, nowIso(),
  );
}

async function balances(tx: Sql, workspaceId: string): Promise<{ balance: number; reserved: number }> {
  const row = await tx.get<{ balance: number; reserved: number }>(`SELECT balance, reserved FROM workspaces WHERE id = ?${tx.dialect.forUpdate}`, workspaceId);
  if (!row) throw new Error(`workspace ${workspaceId} does not exist`);
  return row;
}

export async function grantCredits(tx: Sql, workspaceId: string, amount: number): Promise<number> {
  const { balance } = await balances(tx, workspaceId);
  const after = balance + amount;
  await tx.run('UPDATE workspaces SET balance = ?, updated_at = ? WHERE id = ?', after, nowIso(), workspaceId);
  await record(tx, workspaceId, 'grant', amount, after, {});
  return after;
}

export async function reserveCredits(tx: Sql, workspaceId: string, amount: number, ref: CreditRef): Promise<void> {
  if (amount <= 0) return;
  const { balance, reserved } = await balances(tx, workspaceId);
  if (balance - reserved < amount) throw new InsufficientCredits(amount, balance - reserved);
  await tx.run('UPDATE workspaces SET reserved = reserved + ?, updated_at = ? WHERE id = ?', amount, nowIso(), workspaceId);
  await record(tx, workspaceId, 'reserve', amount, balance, ref);
}

/** Turns a reservation into a charge: the balance drops by the amount, the reservation ends. */
export async function chargeCredits(tx: Sql, workspaceId: string, amount: number, ref: CreditRef): Promise<void> {
  if (amount <= 0) return;
  const { balance } = await balances(tx, workspaceId);
  const after = balance - amount;
  await tx.run('UPDATE workspaces SET balance = ?, reserved = GREATEST(reserved - ?, 0), updated_at = ? WHERE id = ?', after, amount, nowIso(), workspaceId);
  await record(tx, workspaceId, 'charge', amount, after, ref);
}

export async function releaseCredits(tx: Sql, workspaceId: string, amount: number, ref: CreditRef): Promise<void> {
  if (amount <= 0) return;
  const { balance } = await balances(tx, workspaceId);
  await tx.run('UPDATE workspaces SET reserved = GREATEST(reserved - ?, 0), updated_at = ? WHERE id = ?', amount, nowIso(), workspaceId);
  await record(tx, workspaceId, 'release', amount, balance, ref);
}

