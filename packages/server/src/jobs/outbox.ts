// The webhook outbox (decisions §8), written in the transaction that ends a job: the event row
// that the delivery log and redelivery read, and a pending delivery when the job named a
// webhook. The dispatcher (webhooks/) sends them.
import type { Sql } from '../store/sql.ts';
import { newId, nowIso } from '../ids.ts';
import { destinationKey } from '../webhooks/schedule.ts';

/** The webhook event written with the terminal state; null when the job asked for no webhook. */
export interface OutboxEvent {
  type: 'matching.completed' | 'matching.failed' | 'report.completed' | 'report.failed';
  data: Record<string, unknown>;
  webhook: { url: string; headers?: Record<string, string> } | undefined;
}

/** The webhook event's id, creation time and body. */
export function outboxEvent(terminalAt: string, outbox: OutboxEvent): { eventId: string; createdAt: string; body: string } {
  const eventId = newId('evt');
  const createdAt = nowIso();
  return { eventId, createdAt, body: JSON.stringify({ id: eventId, type: outbox.type, createdAt, timestamp: terminalAt, data: outbox.data }) };
}

/** The outbox: the event row, and a pending delivery when the job named a webhook. */
export async function writeOutbox(tx: Sql, workspaceId: string, jobId: string, terminalAt: string, outbox: OutboxEvent): Promise<void> {
  const { eventId, createdAt, body } = outboxEvent(terminalAt, outbox);
  await tx.run('INSERT INTO events (id, workspace_id, job_id, type, body, created_at) VALUES (?, ?, ?, ?, ?, ?)', eventId, workspaceId, jobId, outbox.type, body, createdAt);
  if (!outbox.webhook) return;
  await tx.run(
    `INSERT INTO webhook_deliveries (id, workspace_id, event_id, job_id, url, destination, headers_json, status, attempts, next_attempt_at, created_at, updated_at, seq)
     VALUES (?1, ?2, ?3, ?4, ?5, ?9, ?6, 'pending', 0, ?7, ?8, ?8, nextval('rapport_seq'))`,
    newId('dlv'), workspaceId, eventId, jobId, outbox.webhook.url, JSON.stringify(outbox.webhook.headers ?? {}), Date.now(), createdAt, destinationKey(outbox.webhook.url),
  );
}
