// The embedded database: one SQLite file under DATA_DIR, opened with node:sqlite (built into
// Node 24, so there is no native build step). WAL mode lets readers run while a writer commits;
// synchronous=NORMAL keeps every committed transaction across a process crash (kill -9), which
// is the failure this store must survive; only a power loss may drop the last commits. The log is
// copied back into the file by a worker thread, not by the commits (wal-checkpoint.ts).
import { DatabaseSync, type StatementSync, type SQLInputValue } from 'node:sqlite';
import { chmodSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { MIGRATIONS } from './migrations.ts';
import { WalCheckpoints } from './wal-checkpoint.ts';

export type SqlValue = SQLInputValue;
export type Row = Record<string, SqlValue>;

export class SqliteDb {
  readonly db: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();
  private depth = 0;
  private seq = 0;
  private readonly checkpoints: WalCheckpoints | null = null;

  constructor(file: string) {
    if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    this.db = new DatabaseSync(file);
    // The store holds signing secrets and every workspace's data: owner-only, set before the WAL
    // and shared-memory files are made (SQLite gives them the database file's mode).
    if (file !== ':memory:') chmodSync(file, 0o600);
    // busy_timeout first: switching a fresh file to WAL takes a lock, and a second process opening
    // the same DATA_DIR at that moment (an admin command while the service starts) must wait for
    // it rather than fail with "database is locked".
    this.db.exec('PRAGMA busy_timeout = 5000; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;');
    this.migrate();
    if (file !== ':memory:') {
      this.db.exec('PRAGMA wal_autocheckpoint = 0');
      this.checkpoints = new WalCheckpoints(file, () => {
        if (this.db.isOpen) this.db.exec('PRAGMA wal_autocheckpoint = 1000');
      });
    }
    // A process-local monotonic sequence for list ordering (newest first) that stays strictly
    // increasing even when several rows share a millisecond; seeded from the clock so that a
    // restarted process keeps counting upwards.
    this.seq = Date.now() * 1000;
  }

  private migrate(): void {
    this.db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
    const applied = (): Set<number> => new Set((this.db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version));
    const done = applied();
    for (const m of MIGRATIONS) {
      if (done.has(m.version)) continue;
      this.transaction(() => {
        // Checked again under the write lock: another process may have applied it meanwhile.
        if (applied().has(m.version)) return;
        this.db.exec(m.sql);
        this.run('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)', m.version, new Date().toISOString());
      });
    }
  }

  nextSeq(): number {
    this.seq = Math.max(this.seq + 1, Date.now() * 1000);
    return this.seq;
  }

  private prepare(sql: string): StatementSync {
    let stmt = this.statements.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.statements.set(sql, stmt);
    }
    return stmt;
  }

  get<T = Row>(sql: string, ...params: SqlValue[]): T | undefined {
    return this.prepare(sql).get(...params) as T | undefined;
  }

  all<T = Row>(sql: string, ...params: SqlValue[]): T[] {
    return this.prepare(sql).all(...params) as T[];
  }

  run(sql: string, ...params: SqlValue[]): number {
    const changes = Number(this.prepare(sql).run(...params).changes);
    if (this.depth === 0) this.checkpoints?.soon();
    return changes;
  }

  /**
   * Runs `fn` in one transaction (BEGIN IMMEDIATE takes the write lock up front, so two
   * processes on one file never deadlock upgrading a read lock). Nested calls join the outer one.
   * `fn` must be synchronous: an await inside would let other requests write into it.
   */
  transaction<T>(fn: () => T): T {
    if (this.depth > 0) return fn();
    this.db.exec('BEGIN IMMEDIATE');
    this.depth++;
    try {
      const out = fn();
      this.db.exec('COMMIT');
      this.checkpoints?.soon();
      return out;
    } catch (err) {
      this.db.exec('ROLLBACK');
      throw err;
    } finally {
      this.depth--;
    }
  }

  /** Whether a transaction of this connection is open (work joins it rather than committing). */
  get inTransaction(): boolean {
    return this.depth > 0;
  }

  /**
   * Runs `fn` inside the open transaction as one unit: if it throws, its writes are undone and
   * the error is rethrown, while the rest of the transaction stands (group commit).
   */
  savepoint<T>(fn: () => T): T {
    if (this.depth === 0) throw new Error('savepoint() needs an open transaction');
    this.db.exec('SAVEPOINT unit');
    try {
      const out = fn();
      this.db.exec('RELEASE unit');
      return out;
    } catch (err) {
      this.db.exec('ROLLBACK TO unit');
      this.db.exec('RELEASE unit');
      throw err;
    }
  }

  ping(): boolean {
    return this.get<{ ok: number }>('SELECT 1 AS ok')?.ok === 1;
  }

  close(): void {
    this.checkpoints?.close();
    if (this.db.isOpen) this.db.close();
  }
}
