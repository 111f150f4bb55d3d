// The credit ledger of credits.ledger.ts on PostgreSQL: the same steps, run inside the caller's
// transaction. Each reads the workspace's balances FOR UPDATE, so that two processes reserving
// at once see each other's reservation and can never spend more than is available.
import type { PgExec } from '../store/pg.ts';
import { newId, nowIso } from '../ids.ts';
import { InsufficientCredits, type CreditKind, type CreditRef } from './credits.ledger.ts';

async function record(tx: PgExec, workspaceId: string, kind: CreditKind, amount: number, balanceAfter: number, ref: CreditRef): Promise<void> {
  await tx.run(
    `INSERT INTO credit_transactions (id, workspace_id, kind, amount, balance_after, job_id, media_id, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    newId('txn'), workspaceId, kind, amount, balanceAfter, ref.jobId ?? null, ref.mediaId ?? null, nowIso(),
  );
}

async function balances(tx: PgExec, workspaceId: string): Promise<{ balance: number; reserved: number }> {
  const row = await tx.get<{ balance: number; reserved: number }>('SELECT balance, reserved FROM workspaces WHERE id = $1 FOR UPDATE', workspaceId);
  if (!row) throw new Error(`workspace ${workspaceId} does not exist`);
  return row;
}

export async function grantCreditsPg(tx: PgExec, workspaceId: string, amount: number): Promise<number> {
  const { balance } = await balances(tx, workspaceId);
  const after = balance + amount;
  await tx.run('UPDATE workspaces SET balance = $1, updated_at = $2 WHERE id = $3', after, nowIso(), workspaceId);
  await record(tx, workspaceId, 'grant', amount, after, {});
  return after;
}

export async function reserveCreditsPg(tx: PgExec, workspaceId: string, amount: number, ref: CreditRef): Promise<void> {
  if (amount <= 0) return;
  const { balance, reserved } = await balances(tx, workspaceId);
  if (balance - reserved < amount) throw new InsufficientCredits(amount, balance - reserved);
  await tx.run('UPDATE workspaces SET reserved = reserved + $1, updated_at = $2 WHERE id = $3', amount, nowIso(), workspaceId);
  await record(tx, workspaceId, 'reserve', amount, balance, ref);
}

export async function chargeCreditsPg(tx: PgExec, workspaceId: string, amount: number, ref: CreditRef): Promise<void> {
  if (amount <= 0) return;
  const { balance } = await balances(tx, workspaceId);
  const after = balance - amount;
  await tx.run('UPDATE workspaces SET balance = $1, reserved = GREATEST(reserved - $2, 0), updated_at = $3 WHERE id = $4', after, amount, nowIso(), workspaceId);
  await record(tx, workspaceId, 'charge', amount, after, ref);
}

export async function releaseCreditsPg(tx: PgExec, workspaceId: string, amount: number, ref: CreditRef): Promise<void> {
  if (amount <= 0) return;
  const { balance } = await balances(tx, workspaceId);
  await tx.run('UPDATE workspaces SET reserved = GREATEST(reserved - $1, 0), updated_at = $2 WHERE id = $3', amount, nowIso(), workspaceId);
  await record(tx, workspaceId, 'release', amount, balance, ref);
}
