// The one place that talks HTTP: URL and headers, JSON in and out, per-attempt timeouts, the
// caller's AbortSignal, idempotency keys on POSTs, and retries with capped exponential backoff
// and jitter (the stripe-node / openai-node recipe). Resources stay one-liners on top of it.
import {
  AbortError, APIConnectionError, excerptOf, makeAPIError, RateLimitError, RedirectError, retryAfterSeconds, TimeoutError,
  UnexpectedResponseError,
} from './errors.ts';
import type { APIError, APIErrorBody } from './errors.ts';
import { redirectTarget } from './redirects.ts';
import type { RequestOptions } from '../common-types.ts';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface ClientOptions {
  /** Sent as `Service-Api-Key`. Defaults to the `RAPPORT_API_KEY` environment variable (Node). */
  apiKey?: string;
  /** Defaults to `RAPPORT_BASE_URL`, else `http://127.0.0.1:8080`. */
  baseUrl?: string;
  /** Per attempt, until the response headers arrive. Default 60 000. */
  timeoutMs?: number;
  /** Retries after the first attempt. Default 2. */
  maxRetries?: number;
  /** A `fetch` to use instead of the global one (tests, proxies, older runtimes). */
  fetch?: typeof fetch;
  /** The longest `Retry-After` the SDK waits for by itself, in seconds; beyond it the 429 is thrown. Default 60. */
  maxRetryAfterSec?: number;
  defaultHeaders?: Record<string, string>;
  /**
   * Called before the SDK waits to retry a request by itself, so that a program can say why it
   * is waiting (the CLI prints "waiting 12 s: rate limited"). Errors it throws are ignored.
   */
  onRetry?: (retry: RetryNotice) => void;
}

/** What a retry is about to wait for (ClientOptions.onRetry). */
export interface RetryNotice {
  method: HttpMethod;
  path: string;
  /** The attempt that failed, from 1. */
  attempt: number;
  /** Seconds the SDK now waits before the next attempt. */
  waitSec: number;
  /** The answer's status, or null when no answer came (a network error). */
  status: number | null;
  /** rate_limited: 429 (with the service's Retry-After); unavailable: 503; else server_error or network. */
  reason: 'rate_limited' | 'unavailable' | 'server_error' | 'network';
}

/** A request body the SDK can build again for each attempt (uploads re-open their source). */
export interface BodyFactory {
  (): Promise<{ body: BodyInit; headers: Record<string, string>; stream: boolean }>;
  /** False when the body is a one-shot stream: such a request is never retried. */
  replayable: boolean;
}

export interface HttpRequest {
  method: HttpMethod;
  path: string;
  query?: Record<string, string | number | boolean | undefined> | undefined;
  body?: unknown;
  rawBody?: BodyFactory;
  options?: RequestOptions | undefined;
  /** Leave the body unread (event streams); the timeout then covers only the wait for headers. */
  raw?: boolean;
  /** Overrides the client's timeout when the caller gave none (uploads). */
  defaultTimeoutMs?: number;
}

const RETRYABLE_METHODS = new Set(['GET', 'DELETE']);

function env(name: string): string | undefined {
  return typeof process !== 'undefined' ? process.env?.[name] : undefined;
}

export function newIdempotencyKey(): string {
  const c = globalThis.crypto;
  if (typeof c?.randomUUID === 'function') return `rapport-${c.randomUUID()}`;
  const bytes = new Uint8Array(16);
  c.getRandomValues(bytes);
  return `rapport-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** Exponential from 0.5 s, capped at 8 s, minus up to 25 % jitter so clients spread out. */
export function backoffMs(retryIndex: number): number {
  const base = Math.min(500 * 2 ** retryIndex, 8000);
  return base * (1 - Math.random() * 0.25);
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortError('Request was aborted'));
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new AbortError('Request was aborted'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export class HttpClient {
  readonly apiKey: string;
  readonly baseUrl: string;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly maxRetryAfterSec: number;
  readonly #onRetry: ((retry: RetryNotice) => void) | undefined;
  readonly #fetch: typeof fetch;
  readonly #headers: Record<string, string>;

  constructor(opts: ClientOptions = {}) {
    const apiKey = opts.apiKey ?? env('RAPPORT_API_KEY');
    if (!apiKey) throw new Error('Rapport: no API key (pass { apiKey } or set RAPPORT_API_KEY)');
    this.apiKey = apiKey;
    this.baseUrl = (opts.baseUrl ?? env('RAPPORT_BASE_URL') ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
    this.timeoutMs = opts.timeoutMs ?? 60_000;
    this.maxRetries = opts.maxRetries ?? 2;
    this.maxRetryAfterSec = opts.maxRetryAfterSec ?? 60;
    this.#onRetry = opts.onRetry;
    const f = opts.fetch ?? globalThis.fetch;
    if (typeof f !== 'function') throw new Error('Rapport: no fetch in this runtime; pass { fetch }');
    // Called as a plain function: browsers refuse `fetch` invoked with another `this` ("Illegal
    // invocation"), which `this.#fetch(...)` would pass.
    this.#fetch = (input, init) => f(input, init);
    this.#headers = { ...opts.defaultHeaders };
  }

  buildUrl(path: string, query?: HttpRequest['query']): string {
    const url = new URL(this.baseUrl + path);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    return url.toString();
  }

  /**
   * Sends the request and parses the JSON answer (204 and empty bodies give `undefined`). A body
   * that is not JSON is no answer of the API (a proxy's page, another service): thrown as
   * UnexpectedResponseError, saying what came back, rather than JSON.parse's bare SyntaxError.
   */
  async request<T>(req: HttpRequest): Promise<T> {
    const res = await this.send(req);
    if (res.status === 204) return undefined as T;
    const text = await res.text();
    if (text === '') return undefined as T;
    try {
      return JSON.parse(text) as T;
    } catch {
      const mediaType = res.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() || 'no Content-Type';
      const excerpt = excerptOf(text);
      throw new UnexpectedResponseError(
        `${req.method} ${req.path} answered ${res.status} with ${mediaType}, not JSON: ${JSON.stringify(excerpt)}: `
          + `is ${this.baseUrl} the Rapport API, and does no proxy on the way answer for it?`,
        res,
        excerpt,
      );
    }
  }

  /** Sends with retries and answers the successful `Response`; non-2xx answers are thrown. */
  async send(req: HttpRequest): Promise<Response> {
    const opts = req.options ?? {};
    const headers: Record<string, string> = {
      Accept: 'application/json',
      ...this.#headers,
      'Service-Api-Key': this.apiKey,
    };
    // Every POST gets a key, so that retrying it can never create a second job (decisions.md §5).
    if (req.method === 'POST') headers['Idempotency-Key'] = opts.idempotencyKey ?? newIdempotencyKey();
    Object.assign(headers, opts.headers);
    const maxRetries = req.rawBody && !req.rawBody.replayable ? 0 : (opts.maxRetries ?? this.maxRetries);
    const safe = RETRYABLE_METHODS.has(req.method) || (req.method === 'POST' && !!headers['Idempotency-Key']);
    const url = this.buildUrl(req.path, req.query);

    for (let attempt = 0; ; attempt++) {
      const canRetry = attempt < maxRetries;
      let res: Response;
      try {
        res = await this.#attempt(url, req, headers, opts);
      } catch (err) {
        if (err instanceof AbortError || err instanceof RedirectError || !canRetry || !safe) throw err;
        const waitMs = backoffMs(attempt);
        this.#notify({ method: req.method, path: req.path, attempt: attempt + 1, waitSec: waitMs / 1000, status: null, reason: 'network' });
        await sleep(waitMs, opts.signal);
        continue;
      }
      if (res.ok) return res;
      const error = await this.#toError(res);
      // A 429 was not processed at all (§4: rejected requests do not count), so any method may retry it.
      // 507 (the service's disk is full) does not pass within a retry's backoff: not retried.
      const retryable = error instanceof RateLimitError || (((res.status >= 500 && res.status !== 507) || res.status === 408) && safe);
      if (!canRetry || !retryable) throw error;
      let waitMs = backoffMs(attempt);
      if (error instanceof RateLimitError && error.retryAfter !== null) {
        if (error.retryAfter > this.maxRetryAfterSec) throw error;
        waitMs = error.retryAfter * 1000 + Math.random() * 100;
      } else if (res.status === 503) {
        const ra = retryAfterSeconds(undefined, res.headers);
        if (ra !== null && ra <= this.maxRetryAfterSec) waitMs = ra * 1000;
      }
      const reason = error instanceof RateLimitError ? 'rate_limited' : res.status === 503 ? 'unavailable' : 'server_error';
      this.#notify({ method: req.method, path: req.path, attempt: attempt + 1, waitSec: waitMs / 1000, status: res.status, reason });
      await sleep(waitMs, opts.signal);
    }
  }

  #notify(retry: RetryNotice): void {
    try {
      this.#onRetry?.(retry);
    } catch {
      // A notice must never change what the request does.
    }
  }

  async #attempt(url: string, req: HttpRequest, baseHeaders: Record<string, string>, opts: RequestOptions): Promise<Response> {
    const controller = new AbortController();
    const timeoutMs = opts.timeoutMs ?? req.defaultTimeoutMs ?? this.timeoutMs;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = (): void => controller.abort();
    if (opts.signal?.aborted) controller.abort();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    let keepSignal = false;
    let target = url;
    try {
      for (let hops = 0; ; hops++) {
        const res = await this.#fetch(target, await this.#init(req, baseHeaders, controller.signal));
        const next = redirectTarget(res, target, req.method, hops);
        if (next !== null) {
          await res.body?.cancel().catch(() => undefined);
          if (req.rawBody && !req.rawBody.replayable) {
            throw new RedirectError(`Refused a ${res.status} redirect of an upload from a stream: its body cannot be sent again`, { status: res.status, location: next });
          }
          target = next;
          continue;
        }
        // Streams keep no timer after the headers (their length is the job's, not the request's),
        // but the caller's signal must still be able to cut them.
        if (!req.raw || !res.ok) return await buffered(res);
        keepSignal = true;
        return res;
      }
    } catch (err) {
      if (err instanceof RedirectError) throw err;
      if (opts.signal?.aborted) throw new AbortError('Request was aborted');
      if (timedOut) throw new TimeoutError(`Request timed out after ${timeoutMs} ms`);
      // undici says "fetch failed" and puts the useful part (ECONNREFUSED, ENOTFOUND…) in `cause`.
      const cause = (err as { cause?: { message?: string } })?.cause?.message;
      throw new APIConnectionError(`Connection error: ${cause ?? (err as Error)?.message ?? String(err)} (${target})`, { cause: err });
    } finally {
      clearTimeout(timer);
      if (!keepSignal) opts.signal?.removeEventListener('abort', onAbort);
    }
  }

  /** The fetch options of one hop; the body is built again for each (uploads re-open their source). */
  async #init(req: HttpRequest, baseHeaders: Record<string, string>, signal: AbortSignal): Promise<RequestInit & { duplex?: 'half' }> {
    const headers = { ...baseHeaders };
    const init: RequestInit & { duplex?: 'half' } = { method: req.method, headers, signal, redirect: 'manual' };
    if (req.rawBody) {
      const built = await req.rawBody();
      Object.assign(headers, built.headers);
      init.body = built.body;
      if (built.stream) init.duplex = 'half';
    } else if (req.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(req.body);
    }
    return init;
  }

  async #toError(res: Response): Promise<APIError> {
    const text = await res.text().catch(() => '');
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    const body = (parsed as { error?: APIErrorBody } | undefined)?.error;
    return makeAPIError(res.status, typeof body === 'object' && body !== null ? body : undefined, res.headers, parsed);
  }
}

/** Reads the body inside the timeout's reach, so a stalled body times out like a stalled connect. */
async function buffered(res: Response): Promise<Response> {
  const bytes = await res.arrayBuffer();
  return new Response(res.status === 204 || res.status === 304 ? null : bytes, {
    status: res.status,
    statusText: res.statusText,
    headers: res.headers,
  });
}
