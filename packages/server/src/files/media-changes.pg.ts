// The media change feed on PostgreSQL (see media-changes.ts for the rules): the workspace's
// counter row is updated inside the change's transaction and stays locked until it commits, so
// the numbers grow in commit order across every process of the cluster.
import type { PgExec } from '../store/pg.ts';
import { mediaCounter } from './media-changes.ts';

/** Inside a transaction: numbers the media's change; answers its workspace, or null when it is gone. */
export async function recordMediaChangePg(tx: PgExec, mediaId: string): Promise<string | null> {
  const r = await tx.get<{ workspace_id: string }>('SELECT workspace_id FROM media WHERE id = $1', mediaId);
  if (!r) return null;
  const c = await tx.get<{ value: number }>(
    'INSERT INTO counters (name, value) VALUES ($1, 1) ON CONFLICT (name) DO UPDATE SET value = counters.value + 1 RETURNING value',
    mediaCounter(r.workspace_id),
  );
  await tx.run('UPDATE media SET changed_seq = $1 WHERE id = $2', (c as { value: number }).value, mediaId);
  return r.workspace_id;
}

/** The workspace's newest change number: where a stream without Last-Event-ID starts. */
export async function latestMediaChangePg(tx: PgExec, workspaceId: string): Promise<number> {
  return (await tx.get<{ value: number }>('SELECT value FROM counters WHERE name = $1', mediaCounter(workspaceId)))?.value ?? 0;
}
