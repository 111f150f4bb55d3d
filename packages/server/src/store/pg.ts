// PostgreSQL's adapter (sql.ts), selected by DATABASE_URL: a connection pool, transactions that
// hold one pooled connection from BEGIN to COMMIT (run again when PostgreSQL aborted them as a
// serialization failure or deadlock), `?` placeholders numbered as PostgreSQL's `$n` (text
// already numbered passes unchanged), and the versioned migrations of migrations.ts run at
// open under an advisory lock, so that processes starting together migrate once. BIGINT columns
// (millisecond times, sequence numbers, counts) are read as JavaScript numbers: every value this
// service stores in one stays below 2^53.
import pg from 'pg';
import { randomToken } from '../ids.ts';
import { MIGRATIONS, PG_VERSIONS_BEFORE_34, migrationSql } from './migrations.ts';
import { isTransientConflict, POSTGRES_DIALECT, StoreUnavailableError, TRANSIENT_ATTEMPTS, type Sql, type SqlDatabase } from './sql.ts';

/** A parameter: those of sql.ts, and arrays for the statements written for PostgreSQL alone (unnest). */
export type PgValue = string | number | boolean | null | readonly (string | number | null)[];

/** What a statement written for PostgreSQL alone runs on: the pool or an open transaction. */
export interface PgExec extends Sql {
  all<T>(sql: string, ...params: PgValue[]): Promise<T[]>;
  get<T>(sql: string, ...params: PgValue[]): Promise<T | undefined>;
  run(sql: string, ...params: PgValue[]): Promise<number>;
}

const numbered = new Map<string, string>();

/** Placeholders as PostgreSQL's: `?` as `$1`, `$2`, … in order, `?N` (a value used twice) as `$N`; computed once per text. */
function dollars(sql: string): string {
  let out = numbered.get(sql);
  if (out === undefined) {
    let n = 0;
    out = sql.includes('?') ? sql.replace(/\?(\d*)/g, (_m, digits: string) => `$${digits || ++n}`) : sql;
    if (numbered.size < 2000) numbered.set(sql, out);
  }
  return out;
}

const INT8 = 20;
const NUMERIC = 1700;
const types = {
  getTypeParser: ((oid: number, format?: string) => {
    if (oid === INT8 || oid === NUMERIC) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format as 'text');
  }) as typeof pg.types.getTypeParser,
};

/**
 * How this process's sessions show in pg_stat_activity: an operator (and the crash campaign,
 * bench/chaos.ts) can tell which process holds a session, a lock or a transaction.
 */
const APPLICATION_NAME = `rapport-${process.pid}`;

/** Lock key of the migrations (any constant shared by every process of one database). */
const MIGRATION_LOCK = 7_262_160_421;

/**
 * PostgreSQL text cannot hold U+0000, which the embedded store and JSON accept: it becomes U+FFFD
 * (a lookup by such an id then finds nothing, as it would on the embedded store, instead of
 * failing the request).
 */
function param(v: PgValue): PgValue {
  if (typeof v === 'string') return v.includes('\u0000') ? v.replaceAll('\u0000', '\uFFFD') : v;
  if (Array.isArray(v)) return v.map((x: string | number | null) => (typeof x === 'string' && x.includes('\u0000') ? x.replaceAll('\u0000', '\uFFFD') : x));
  return v;
}

/**
 * Statements with parameters are prepared, once per connection, under a name drawn from their
 * text: PostgreSQL then parses and plans them once instead of at every call (a third of the
 * server's work for the short statements of a request). The service's SQL is a fixed set of
 * texts; past PREPARED_MAX distinct texts the rest run unnamed, so text built at run time cannot
 * fill the server's memory. A statement without parameters runs unnamed (it may hold several
 * statements, which the extended protocol refuses).
 *
 * A prepared `SELECT *` fails once its table gained or lost a column (a newer process migrated
 * during a rolling upgrade): PostgreSQL answers "cached plan must not change result type". Every
 * name is then drawn anew, so each connection prepares the statements again, and the statement
 * is run again (a transaction is retried whole).
 */
const PREPARED_MAX = 500;

/** PgOptions.timeoutMs when not given (DATABASE_TIMEOUT_SEC's default). */
const DEFAULT_TIMEOUT_MS = 5000;
let prepared = new Map<string, string>();
let generation = 0;

function statementName(sql: string): string | undefined {
  let name = prepared.get(sql);
  if (name === undefined && prepared.size < PREPARED_MAX) {
    name = `rapport_${generation}_${prepared.size + 1}`;
    prepared.set(sql, name);
  }
  return name;
}

/** Whether `err` is a prepared statement outdated by a change of its tables; if so, forgets every name. */
function outdatedPlan(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  if (e.code !== '0A000' || !e.message?.includes('cached plan')) return false;
  generation++;
  prepared = new Map();
  return true;
}

/** Socket errors that say the server is out of reach (refused, reset, unreachable, timed out). */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNABORTED']);

/**
 * Whether `err` says PostgreSQL cannot be reached now rather than that the statement is wrong:
 * a socket error, a connection the server or the network ended, a connect or query timeout of
 * the pool, or the server's own "connection exception" (class 08), shutdown (57P01–57P03) and
 * too-many-connections (53300) codes.
 */
export function isUnavailable(err: unknown): boolean {
  if (err instanceof StoreUnavailableError) return true;
  const e = err as { code?: unknown; message?: unknown; errors?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  const code = typeof e.code === 'string' ? e.code : '';
  if (NETWORK_CODES.has(code) || code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300') return true;
  // Several addresses tried (localhost as ::1 and 127.0.0.1): each refused.
  if (Array.isArray(e.errors) && e.errors.length > 0 && e.errors.every(isUnavailable)) return true;
  const message = typeof e.message === 'string' ? e.message : '';
  return /^(Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error|Client was closed and is not queryable)/.test(message);
}

/** `err`, as a StoreUnavailableError when it says the store is out of reach. */
function classified(err: unknown): unknown {
  if (err instanceof StoreUnavailableError || !isUnavailable(err)) return err;
  return new StoreUnavailableError(`PostgreSQL does not answer: ${(err as Error).message || String(err)}`, { cause: err });
}

class Exec implements PgExec {
  readonly dialect = POSTGRES_DIALECT;
  protected readonly q: pg.Pool | pg.PoolClient;
  private readonly inTransaction: boolean;
  constructor(q: pg.Pool | pg.PoolClient, inTransaction: boolean) {
    this.q = q;
    this.inTransaction = inTransaction;
  }
  private async query(text: string, params: PgValue[]) {
    try {
      return await this.send(text, params);
    } catch (err) {
      throw classified(err);
    }
  }
  private async send(text: string, params: PgValue[]) {
    const sql = dollars(text);
    if (params.length === 0) return this.q.query(sql);
    const values = params.map(param);
    const run = () => {
      const name = statementName(sql);
      return this.q.query(name === undefined ? { text: sql, values } : { name, text: sql, values });
    };
    try {
      return await run();
    } catch (err) {
      // Inside a transaction the error aborted it: PgDb.transaction runs it again.
      if (!outdatedPlan(err) || this.inTransaction) throw err;
      return run();
    }
  }
  async all<T>(sql: string, ...params: PgValue[]): Promise<T[]> {
    return (await this.query(sql, params)).rows as T[];
  }
  async get<T>(sql: string, ...params: PgValue[]): Promise<T | undefined> {
    return (await this.query(sql, params)).rows[0] as T | undefined;
  }
  async run(sql: string, ...params: PgValue[]): Promise<number> {
    return (await this.query(sql, params)).rowCount ?? 0;
  }
  /** On an open transaction, `fn` joins it; PgDb overrides this for the pool. */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    return fn(this);
  }
}

/** The comment schema_migrations carries once its rows are numbered as the one list (issue 34). */
const ONE_LIST = 'versions of store/migrations.ts';

/**
 * Creates schema_migrations, or renumbers the rows of one written before issue 34 (PostgreSQL's
 * own numbering, PG_VERSIONS_BEFORE_34) as the versions of the one list: once, in one transaction,
 * under the caller's advisory lock. The table's comment tells which numbering its rows follow.
 */
async function numberAsOneList(client: pg.ClientBase): Promise<void> {
  const found = await client.query<{ present: string | null; numbering: string | null }>(
    "SELECT to_regclass('schema_migrations')::text AS present, obj_description(to_regclass('schema_migrations'), 'pg_class') AS numbering",
  );
  const table = found.rows[0];
  if (table?.numbering === ONE_LIST) return;
  await client.query('BEGIN');
  try {
    if (!table?.present) {
      await client.query('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
    } else {
      const before = (await client.query<{ version: number; applied_at: string }>('SELECT version, applied_at FROM schema_migrations')).rows;
      await client.query('DELETE FROM schema_migrations');
      for (const row of before) {
        const versions = PG_VERSIONS_BEFORE_34[row.version];
        if (!versions) throw new Error(`schema_migrations holds version ${row.version}, which no release of this service wrote`);
        for (const v of versions) await client.query('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)', [v, row.applied_at]);
      }
    }
    await client.query(`COMMENT ON TABLE schema_migrations IS '${ONE_LIST}'`);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK');
    throw err;
  }
}

export interface PgOptions {
  /** A schema to work in (created when missing): lets tests share one database without colliding. */
  schema?: string;
  max?: number;
  /**
   * The longest wait for a connection (connect, or a free one of the pool) and for a statement's
   * answer, in milliseconds; past it the statement fails as StoreUnavailableError and its
   * connection is given up. Default 5000; 0: no limit (bulk copies). Migrations run without it.
   */
  timeoutMs?: number;
  /**
   * Whether the statements that write job events announce them with NOTIFY (default true); false
   * where Redis carries them (job-event-bus.redis.ts), which spares each writing transaction the
   * lock PostgreSQL takes at the commit of one that notifies.
   */
  notifyJobEvents?: boolean;
}

export class PgDb extends Exec implements SqlDatabase {
  readonly pool: pg.Pool;
  readonly url: string;
  readonly schema: string;
  /** The NOTIFY channel of job events in this database and schema. */
  readonly channel: string;
  /** The channel the statements writing job events notify, or null: they do not (PgOptions.notifyJobEvents). */
  readonly jobEventNotifyChannel: string | null;
  /** Tells this connection pool's own notifications from other processes'. */
  readonly origin = randomToken(12);

  private readonly connectTimeoutMs: number;

  private constructor(pool: pg.Pool, url: string, schema: string, notifyJobEvents: boolean, connectTimeoutMs: number) {
    super(pool, false);
    this.connectTimeoutMs = connectTimeoutMs;
    this.pool = pool;
    this.url = url;
    this.schema = schema;
    this.channel = `rapport_events_${schema}`.slice(0, 63);
    this.jobEventNotifyChannel = notifyJobEvents ? this.channel : null;
  }

  /** Connects, creates the schema when asked for one, and migrates. */
  static async open(url: string, opts: PgOptions = {}): Promise<PgDb> {
    const schema = opts.schema ?? 'public';
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`invalid schema name ${schema}`);
    const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const pool = new pg.Pool({
      connectionString: url,
      max: opts.max ?? 10,
      types,
      application_name: APPLICATION_NAME,
      ...(opts.schema ? { options: `-c search_path=${schema}` } : {}),
      // A PostgreSQL that hangs (connection open, no answer) fails each statement within the
      // timeout instead of holding every request until the HTTP idle timeout (issue 41, finding 5):
      // a connect, a wait for a free connection and a statement each wait at most this long. A
      // connection whose statement timed out is ended by the pool, so the pool heals by itself
      // once the server answers again. Keepalive finds a peer that went away without a word.
      ...(timeoutMs > 0 ? { connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs } : {}),
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    // An idle connection that the server drops must not crash the process; the next query reconnects.
    pool.on('error', () => undefined);
    const db = new PgDb(pool, url, schema, opts.notifyJobEvents !== false, timeoutMs);
    try {
      await db.migrate(opts.schema !== undefined);
    } catch (err) {
      await pool.end();
      throw err;
    }
    return db;
  }

  private async migrate(createSchema: boolean): Promise<void> {
    // A connection of its own, without the statement timeout: a migration, and the wait for
    // another process's, may take longer than a request's statement.
    const client = await this.dedicated();
    try {
      // Session-level lock: a second process waits here until the first has migrated, then
      // finds every version applied. The schema is created under it too: CREATE SCHEMA IF NOT
      // EXISTS run by two sessions at once fails in one of them.
      await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
      if (createSchema) await client.query(`CREATE SCHEMA IF NOT EXISTS ${this.schema}`);
      await numberAsOneList(client);
      const done = new Set((await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version));
      for (const m of MIGRATIONS) {
        if (done.has(m.version)) continue;
        await client.query('BEGIN');
        try {
          const sql = migrationSql(m, 'pg');
          if (sql) await client.query(sql);
          await client.query('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)', [m.version, new Date().toISOString()]);
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK');
          throw err;
        }
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
      await client.end().catch(() => undefined);
    }
  }

  /**
   * Runs `fn` in one transaction on one connection: committed when it resolves, rolled back when
   * it throws. A serialization failure or deadlock (which PostgreSQL resolves by aborting one side)
   * is retried a few times, so callers see it only when it persists.
   */
  override async transaction<T>(fn: (tx: PgExec) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      let client: pg.PoolClient;
      try {
        client = await this.pool.connect();
      } catch (err) {
        throw classified(err);
      }
      let broken = false;
      try {
        await client.query('BEGIN');
        const out = await fn(new Exec(client, true));
        await client.query('COMMIT');
        return out;
      } catch (err) {
        // A connection that failed or timed out is given up as it is: a ROLLBACK on it would
        // only wait again (the server rolls back the transaction of a connection that ends).
        if (isUnavailable(err)) {
          broken = true;
          throw classified(err);
        }
        await client.query('ROLLBACK').catch(() => {
          broken = true;
        });
        const code = (err as { code?: string }).code;
        // (0A000: a prepared statement outdated by a migration; its name was drawn anew.)
        const outdated = code === '0A000' && String((err as Error).message).includes('cached plan');
        if ((isTransientConflict(err) || outdated) && attempt < TRANSIENT_ATTEMPTS) continue;
        throw err;
      } finally {
        client.release(broken);
      }
    }
  }

  /** A connection of its own, for LISTEN and migrations, without a statement timeout (the caller ends it). */
  async dedicated(): Promise<pg.Client> {
    const client = new pg.Client({
      connectionString: this.url, types, application_name: APPLICATION_NAME, keepAlive: true, keepAliveInitialDelayMillis: 10_000,
      ...(this.connectTimeoutMs > 0 ? { connectionTimeoutMillis: this.connectTimeoutMs } : {}),
      ...(this.schema !== 'public' ? { options: `-c search_path=${this.schema}` } : {}),
    });
    client.on('error', () => undefined);
    await client.connect();
    return client;
  }

  async ping(): Promise<boolean> {
    return (await this.get<{ ok: number }>('SELECT 1 AS ok'))?.ok === 1;
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
