// The embedded engine's adapter: one SQLite file under DATA_DIR, opened with node:sqlite (built
// into Node 24, so there is no native build step), behind the async interface of sql.ts. WAL
// mode lets readers run while a writer commits; synchronous=NORMAL keeps every committed
// transaction across a process crash (kill -9), which is the failure this store must survive;
// only a power loss may drop the last commits. The log is copied back into the file by a worker
// thread, not by the commits (wal-checkpoint.ts; issue 32, finding 1).
//
// One connection serves the process, so its transactions run one at a time: while one is open,
// every other statement and transaction waits for it. Group commit: the transactions asked for
// during one turn of the event loop run together in one BEGIN … COMMIT, each in its own
// savepoint (one that throws is undone alone), and each is answered once the commit is done. The
// commit, not the statements, dominates a short transaction's cost here (`npm run bench`: job
// creations), and a lone transaction waits for nothing but the end of the current turn.
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { chmodSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { SQLITE_DIALECT, type Sql, type SqlDatabase, type SqlValue } from './sql.ts';
import { MIGRATIONS, migrationSql } from './migrations.ts';
import { WalCheckpoints } from './wal-checkpoint.ts';

interface PendingTransaction {
  fn: (tx: Sql) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; err: unknown };

/** Prepared statements kept per connection (the PostgreSQL adapter's PREPARED_MAX is the same). */
const STATEMENTS_MAX = 500;

export class SqliteDatabase implements SqlDatabase {
  readonly dialect = SQLITE_DIALECT;
  readonly file: string;
  private readonly db: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();
  private seq = 0;
  /** Whether a group of transactions holds the connection. */
  private busy = false;
  /** Statements (outside any transaction) waiting for the open transactions to end. */
  private waiting: (() => void)[] = [];
  private group: PendingTransaction[] = [];
  private flushScheduled = false;
  /** What transactions run their statements on (they hold the connection: no waiting). */
  private readonly tx: Sql;
  private checkpoints: WalCheckpoints | null = null;

  private constructor(file: string) {
    this.file = file;
    if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    this.db = new DatabaseSync(file);
    // The store holds signing secrets and every workspace's data: owner-only, set before the WAL
    // and shared-memory files are made (SQLite gives them the database file's mode).
    if (file !== ':memory:') chmodSync(file, 0o600);
    // busy_timeout first: switching a fresh file to WAL takes a lock, and a second process opening
    // the same DATA_DIR at that moment (an admin command while the service starts) must wait for
    // it rather than fail with "database is locked".
    this.db.exec('PRAGMA busy_timeout = 5000; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;');
    // A process-local monotonic sequence for list ordering (newest first) that stays strictly
    // increasing even when several rows share a millisecond; seeded from the clock so that a
    // restarted process keeps counting upwards. Read as PostgreSQL's `nextval('rapport_seq')`.
    this.seq = Date.now() * 1000;
    this.db.function('nextval', { deterministic: false }, (_sequence: unknown) => {
      this.seq = Math.max(this.seq + 1, Date.now() * 1000);
      return this.seq;
    });
    // PostgreSQL's GREATEST and LEAST: NULL arguments are passed over (SQLite's max and min
    // answer NULL as soon as one is NULL).
    const pick = (better: (a: number, b: number) => boolean) => (...values: unknown[]) => {
      let out: number | null = null;
      for (const v of values) if (typeof v === 'number' && (out === null || better(v, out))) out = v;
      return out;
    };
    this.db.function('greatest', { varargs: true, deterministic: true }, pick((a, b) => a > b));
    this.db.function('least', { varargs: true, deterministic: true }, pick((a, b) => a < b));
    const tx: Sql = {
      dialect: SQLITE_DIALECT,
      get: async (sql, ...params) => this.getNow(sql, params),
      all: async (sql, ...params) => this.allNow(sql, params),
      run: async (sql, ...params) => this.runNow(sql, params),
      transaction: (fn) => fn(tx),
    };
    this.tx = tx;
  }

  /** Opens the file (created when missing) and brings its schema to the current version. */
  static async open(file: string): Promise<SqliteDatabase> {
    const db = new SqliteDatabase(file);
    try {
      db.migrate();
    } catch (err) {
      db.db.close();
      throw err;
    }
    if (file !== ':memory:') {
      db.db.exec('PRAGMA wal_autocheckpoint = 0');
      db.checkpoints = new WalCheckpoints(file, () => {
        if (db.db.isOpen) db.db.exec('PRAGMA wal_autocheckpoint = 1000');
      });
    }
    return db;
  }

  private migrate(): void {
    this.db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
    const applied = (): Set<number> => new Set((this.db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version));
    for (const m of MIGRATIONS) {
      if (applied().has(m.version)) continue;
      this.db.exec('BEGIN IMMEDIATE');
      try {
        // Checked again under the write lock: another process may have applied it meanwhile.
        if (!applied().has(m.version)) {
          this.db.exec(migrationSql(m, 'sqlite'));
          this.db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(m.version, new Date().toISOString());
        }
        this.db.exec('COMMIT');
      } catch (err) {
        this.db.exec('ROLLBACK');
        throw err;
      }
    }
  }

  /**
   * Statements are prepared once per text and kept, the most recently used STATEMENTS_MAX of
   * them (as the PostgreSQL adapter bounds its prepared statements): the service's SQL is a fixed
   * set of texts, and a text built from data (a list of values) cannot fill the memory. Before
   * issue 41 (finding 6) the cache had no bound: 2,560 texts of the webhook dispatcher's list of
   * saturated URLs held 780 MB.
   */
  private prepare(sql: string): StatementSync {
    let stmt = this.statements.get(sql);
    if (stmt) {
      // Most recently used last: a Map iterates in insertion order.
      this.statements.delete(sql);
    } else {
      stmt = this.db.prepare(sql);
      if (this.statements.size >= STATEMENTS_MAX) {
        const oldest = this.statements.keys().next();
        if (!oldest.done) this.statements.delete(oldest.value);
      }
    }
    this.statements.set(sql, stmt);
    return stmt;
  }

  /** How many prepared statements are kept now (tests). */
  get cachedStatements(): number {
    return this.statements.size;
  }

  private getNow<T>(sql: string, params: SqlValue[]): T | undefined {
    return this.prepare(sql).get(...params) as T | undefined;
  }

  private allNow<T>(sql: string, params: SqlValue[]): T[] {
    return this.prepare(sql).all(...params) as T[];
  }

  private runNow(sql: string, params: SqlValue[]): number {
    return Number(this.prepare(sql).run(...params).changes);
  }

  /** Runs `fn` now when no transaction is open, else once they have ended. */
  private whenFree<T>(fn: () => T): Promise<T> {
    if (!this.busy) {
      try {
        return Promise.resolve(fn());
      } catch (err) {
        return Promise.reject(err as Error);
      }
    }
    return new Promise<T>((resolve, reject) => {
      this.waiting.push(() => {
        try {
          resolve(fn());
        } catch (err) {
          reject(err as Error);
        }
      });
    });
  }

  get<T>(sql: string, ...params: SqlValue[]): Promise<T | undefined> {
    return this.whenFree(() => this.getNow<T>(sql, params));
  }

  all<T>(sql: string, ...params: SqlValue[]): Promise<T[]> {
    return this.whenFree(() => this.allNow<T>(sql, params));
  }

  run(sql: string, ...params: SqlValue[]): Promise<number> {
    return this.whenFree(() => {
      const changes = this.runNow(sql, params);
      this.checkpoints?.soon();
      return changes;
    });
  }

  /**
   * Runs `fn` in a transaction shared with the others asked for during this turn (BEGIN
   * IMMEDIATE takes the write lock up front, so two processes on one file never deadlock
   * upgrading a read lock), in a savepoint of its own; answers once the commit is done.
   */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.group.push({ fn, resolve: resolve as (value: unknown) => void, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.flushScheduled || this.busy || this.group.length === 0) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      // flush answers every transaction of the group itself, whatever happens.
      this.flush().catch(() => undefined);
    });
  }

  private async flush(): Promise<void> {
    if (this.busy || this.group.length === 0) return;
    const group = this.group;
    this.group = [];
    this.busy = true;
    const outcomes: Outcome[] = [];
    try {
      this.db.exec('BEGIN IMMEDIATE');
    } catch (err) {
      this.release();
      for (const p of group) p.reject(err);
      return;
    }
    let failed: unknown = null;
    try {
      for (const p of group) {
        this.db.exec('SAVEPOINT unit');
        try {
          const value = await p.fn(this.tx);
          this.db.exec('RELEASE unit');
          outcomes.push({ ok: true, value });
        } catch (err) {
          this.db.exec('ROLLBACK TO unit');
          this.db.exec('RELEASE unit');
          outcomes.push({ ok: false, err });
        }
      }
      this.db.exec('COMMIT');
      this.checkpoints?.soon();
    } catch (err) {
      // The commit failed (or a savepoint could not be undone): nothing of the group was kept.
      failed = err;
      try {
        if (this.db.isTransaction) this.db.exec('ROLLBACK');
      } catch {
        // The connection is gone; each transaction fails with the first error.
      }
    }
    this.release();
    group.forEach((p, i) => {
      const o = outcomes[i];
      if (failed !== null || !o) p.reject(failed ?? new Error('transaction lost its outcome'));
      else if (o.ok) p.resolve(o.value);
      else p.reject(o.err);
    });
  }

  private release(): void {
    this.busy = false;
    const waiting = this.waiting;
    this.waiting = [];
    for (const w of waiting) w();
    this.schedule();
  }

  async ping(): Promise<boolean> {
    return (await this.get<{ ok: number }>('SELECT 1 AS ok'))?.ok === 1;
  }

  async close(): Promise<void> {
    await this.checkpoints?.close();
    if (this.db.isOpen) this.db.close();
  }
}
