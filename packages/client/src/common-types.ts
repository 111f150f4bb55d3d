// What every resource shares: ids, timestamps, pages of a list, and the options of one request.
// The resource shapes are in the files beside this one, one domain each (job-types.ts,
// result-types.ts, media-types.ts, measure-types.ts, entity-types.ts, account-types.ts,
// evidence-types.ts); index.ts re-exports them all. The OpenAPI drift test
// (test/openapi.test.ts) checks the field lists of fields.ts against the server's document, and
// fields.ts is checked against these types by the compiler, so none of them drifts alone.

export type Id = string;
/** ISO 8601 UTC with milliseconds. */
export type Timestamp = string;

export interface List<T> {
  data: T[];
  nextCursor: string | null;
}

export interface ListParams {
  /** 1 to 100, default 20: the page size, not a total. */
  limit?: number;
  cursor?: string;
}

export interface RequestOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  maxRetries?: number;
  /** For POSTs: replaces the key the SDK would generate. */
  idempotencyKey?: string;
  headers?: Record<string, string>;
}
