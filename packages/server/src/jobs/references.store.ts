// Whether the media and entities a job request names exist in the caller's workspace (§5), all
// of a request's references answered by one call. On the embedded store each is one indexed
// lookup in-process. On PostgreSQL every job creation checks its media and entities before it is
// written; one statement per reference was two round trips per creation, each costing the
// server and this process more than the lookup itself (bench/postgres.ts, http row). There the
// references asked for while a check is running are answered together by the next one, in one
// statement, whatever their workspace; a reference asked for twice in one check is looked up
// once. A lone check waits for nothing but the end of the current turn of the event loop.
import type { Sql } from '../store/sql.ts';
import type { PgExec } from '../store/pg.ts';

export interface Reference {
  kind: 'media' | 'entity';
  id: string;
}

export interface ReferenceStore {
  /** For each reference, in order, whether it exists in the workspace. */
  exist(workspaceId: string, refs: readonly Reference[]): Promise<boolean[]>;
}

interface Waiting {
  kind: Reference['kind'];
  workspaceId: string;
  id: string;
  answers: { resolve: (exists: boolean) => void; reject: (err: unknown) => void }[];
}

export class SqlReferenceStore implements ReferenceStore {
  private readonly db: Sql;
  /** The references of the next check, by kind, workspace and id. */
  private next = new Map<string, Waiting>();
  private running = false;

  constructor(db: Sql) {
    this.db = db;
  }

  exist(workspaceId: string, refs: readonly Reference[]): Promise<boolean[]> {
    if (this.db.dialect.name === 'sqlite') return Promise.all(refs.map((r) => this.lookup(workspaceId, r)));
    return Promise.all(refs.map((r) => this.one(workspaceId, r)));
  }

  private async lookup(workspaceId: string, r: Reference): Promise<boolean> {
    const sql = r.kind === 'media' ? 'SELECT 1 AS x FROM media WHERE id = ? AND workspace_id = ?' : 'SELECT 1 AS x FROM entities WHERE id = ? AND workspace_id = ?';
    return (await this.db.get(sql, r.id, workspaceId)) !== undefined;
  }

  private one(workspaceId: string, ref: Reference): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      const key = `${ref.kind}\u0000${workspaceId}\u0000${ref.id}`;
      const waiting = this.next.get(key);
      if (waiting) waiting.answers.push({ resolve, reject });
      else this.next.set(key, { kind: ref.kind, workspaceId, id: ref.id, answers: [{ resolve, reject }] });
      if (!this.running) {
        this.running = true;
        // The rest of this turn's references join the first check.
        setImmediate(() => {
          this.drain().catch(() => undefined); // drain answers every waiting check itself
        });
      }
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.next.size > 0) {
        const batch = [...this.next.values()];
        this.next = new Map();
        try {
          const found = await this.check(batch);
          for (const [i, w] of batch.entries()) for (const a of w.answers) a.resolve(found.has(i + 1));
        } catch (err) {
          for (const w of batch) for (const a of w.answers) a.reject(err);
        }
      }
    } finally {
      this.running = false;
    }
  }

  /** The 1-based positions in `batch` of the references that exist (PostgreSQL: unnest takes arrays). */
  private async check(batch: Waiting[]): Promise<Set<number>> {
    const rows = await (this.db as PgExec).all<{ n: number }>(
      `SELECT r.n FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS r(kind, workspace_id, id, n)
       WHERE CASE WHEN r.kind = 'media'
         THEN EXISTS (SELECT 1 FROM media m WHERE m.id = r.id AND m.workspace_id = r.workspace_id)
         ELSE EXISTS (SELECT 1 FROM entities e WHERE e.id = r.id AND e.workspace_id = r.workspace_id) END`,
      batch.map((w) => w.kind), batch.map((w) => w.workspaceId), batch.map((w) => w.id),
    );
    return new Set(rows.map((r) => Number(r.n)));
  }
}
