// Reference checks on PostgreSQL (see references.store.ts). Every job creation checks its media
// and entities before it is written; one statement per reference was two round trips per
// creation, each costing the server and this process more than the lookup itself (bench/
// postgres.ts, http row). The references asked for while a check is running are answered
// together by the next one, in one statement, whatever their workspace; a reference asked for
// twice in one check is looked up once. A lone check waits for nothing but the end of the
// current turn of the event loop.
import type { PgDb } from '../store/pg.ts';
import type { Reference, ReferenceStore } from './references.store.ts';

interface Waiting {
  kind: Reference['kind'];
  workspaceId: string;
  id: string;
  answers: { resolve: (exists: boolean) => void; reject: (err: unknown) => void }[];
}

export class PgReferenceStore implements ReferenceStore {
  private readonly db: PgDb;
  /** The references of the next check, by kind, workspace and id. */
  private next = new Map<string, Waiting>();
  private running = false;

  constructor(db: PgDb) {
    this.db = db;
  }

  exist(workspaceId: string, refs: readonly Reference[]): Promise<boolean[]> {
    return Promise.all(refs.map((r) => this.one(workspaceId, r)));
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

  /** The 1-based positions in `batch` of the references that exist. */
  private async check(batch: Waiting[]): Promise<Set<number>> {
    const rows = await this.db.all<{ n: number }>(
      `SELECT r.n FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS r(kind, workspace_id, id, n)
       WHERE CASE WHEN r.kind = 'media'
         THEN EXISTS (SELECT 1 FROM media m WHERE m.id = r.id AND m.workspace_id = r.workspace_id)
         ELSE EXISTS (SELECT 1 FROM entities e WHERE e.id = r.id AND e.workspace_id = r.workspace_id) END`,
      batch.map((w) => w.kind), batch.map((w) => w.workspaceId), batch.map((w) => w.id),
    );
    return new Set(rows.map((r) => Number(r.n)));
  }
}
