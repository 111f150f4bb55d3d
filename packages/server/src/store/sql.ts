// The one interface every store is written against, whichever engine holds the data: statements
// with `?` placeholders (`?N` for the Nth value, where one is used twice), run / get / all, and
// transactions. Each engine has a small adapter:
// sqlite.ts (node:sqlite behind an async facade; transactions run one at a time and those asked
// for during one turn of the event loop share a commit) and pg.ts (a pool; a transaction that
// PostgreSQL aborted as a serialization failure or deadlock is run again).
//
// Both engines read the same SQL: PostgreSQL's spelling where SQLite can be taught it (the
// embedded adapter defines `nextval('rapport_seq')`, `greatest` and `least` with PostgreSQL's
// meaning), standard SQL elsewhere (`CAST(? AS TEXT)`, `ON CONFLICT`, `RETURNING`, which SQLite
// has spoken since 3.35). The few places where the engines really differ are named here, in
// `Dialect`, and nowhere else.

export type SqlValue = string | number | null;

/** What a store runs statements on: the database (each statement commits alone) or an open transaction. */
export interface Sql {
  readonly dialect: Dialect;
  get<T>(sql: string, ...params: SqlValue[]): Promise<T | undefined>;
  all<T>(sql: string, ...params: SqlValue[]): Promise<T[]>;
  /** Runs a statement and answers how many rows it changed. */
  run(sql: string, ...params: SqlValue[]): Promise<number>;
  /**
   * Runs `fn` in one transaction: committed when it resolves, undone when it throws. Called on an
   * open transaction, `fn` joins it. `fn` runs statements only on the `tx` it is given, and waits
   * for nothing but them: the embedded engine holds its only connection until `fn` ends.
   */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
}

/** A database: the statements and transactions of `Sql`, readiness and closing. */
export interface SqlDatabase extends Sql {
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** What differs between the engines, in SQL text. */
export interface Dialect {
  readonly name: 'sqlite' | 'postgres';
  /**
   * Appended to a SELECT that reads rows it will change inside a transaction: `FOR UPDATE` on
   * PostgreSQL (another process's transaction waits for this one); nothing on the embedded
   * engine, whose transactions already run one at a time.
   */
  readonly forUpdate: string;
  /** The same, for a claim that passes over rows another transaction holds (`FOR UPDATE SKIP LOCKED`). */
  readonly forUpdateSkipLocked: string;
  /** Seconds from one ISO-8601 text column to another, as a floating-point number. */
  secondsBetween(from: string, to: string): string;
  /** Whether the JSON array of text in `column` holds `value` (another SQL expression), ignoring case. */
  jsonArrayHasText(column: string, value: string): string;
  /** Where text `needle` first stands in `haystack`, from 1; 0 when it does not. */
  position(needle: string, haystack: string): string;
  /**
   * Whether `column` is one of the values of a JSON array given as one parameter (`?`, bound to
   * `jsonList(values)`): the statement's text is the same whatever the number of values, so each
   * engine prepares it once (an `IN (?, ?, …)` list is one statement per length: issue 41,
   * finding 6, 2,560 of them held 780 MB in the embedded store's cache).
   */
  inJsonList(column: string): string;
  /** The member `key` (a constant name) of the JSON object in text `column`, as JSON text (null when absent). */
  jsonMember(column: string, key: string): string;
}

/** The values of an `inJsonList` parameter. */
export function jsonList(values: readonly (string | number)[]): string {
  return JSON.stringify(values);
}

export const SQLITE_DIALECT: Dialect = {
  name: 'sqlite',
  forUpdate: '',
  forUpdateSkipLocked: '',
  secondsBetween: (from, to) => `((julianday(${to}) - julianday(${from})) * 86400.0)`,
  jsonArrayHasText: (column, value) => `EXISTS (SELECT 1 FROM json_each(${column}) WHERE lower(json_each.value) = lower(${value}))`,
  position: (needle, haystack) => `instr(${haystack}, ${needle})`,
  inJsonList: (column) => `${column} IN (SELECT value FROM json_each(?))`,
  jsonMember: (column, key) => `json_extract(${column}, '$.${key}')`,
};

export const POSTGRES_DIALECT: Dialect = {
  name: 'postgres',
  forUpdate: ' FOR UPDATE',
  forUpdateSkipLocked: ' FOR UPDATE SKIP LOCKED',
  secondsBetween: (from, to) => `EXTRACT(EPOCH FROM (${to}::timestamptz - ${from}::timestamptz))::float8`,
  jsonArrayHasText: (column, value) => `EXISTS (SELECT 1 FROM json_array_elements_text(${column}::json) AS t(value) WHERE lower(t.value) = lower(${value}))`,
  position: (needle, haystack) => `strpos(${haystack}, ${needle})`,
  inJsonList: (column) => `${column} IN (SELECT json_array_elements_text(?::json))`,
  jsonMember: (column, key) => `((${column})::json -> '${key}')::text`,
};

/** How many times work that PostgreSQL aborted as a serialization failure or deadlock is run. */
export const TRANSIENT_ATTEMPTS = 5;

/**
 * A serialization failure (40001) or a deadlock (40P01): PostgreSQL aborted this side so that the
 * other could go on, and the same work may simply run again.
 */
export function isTransientConflict(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === '40001' || code === '40P01';
}

/**
 * The store cannot be reached now: PostgreSQL refuses or drops connections, or does not answer
 * within its timeout. Answered 503 `UNAVAILABLE` with `Retry-After` (decisions §2), never 500.
 */
export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
