// /v1/jobs: get, list, cancel, the progress stream, and `wait`, which follows the stream and
// falls back to polling when streaming is not possible (proxies that buffer, runtimes without it).
import { AbortError, APIConnectionError, APIError, JobFailedError, RapportError, TimeoutError } from '../core/errors.ts';
import { PagePromise } from '../core/pagination.ts';
import { parseSse } from '../core/sse.ts';
import type { SseState } from '../core/sse.ts';
import { backoffMs, sleep } from '../core/http.ts';
import type { HttpClient } from '../core/http.ts';
import { pathFor } from '../endpoints.ts';
import type { Job, JobEvent, JobListParams, List, RequestOptions } from '../types.ts';

export interface StreamOptions {
  signal?: AbortSignal;
  /** Resume after this event id (what a previous stream's last event carried). */
  lastEventId?: string;
  /** Consecutive failed reconnections before giving up. Default 5. */
  maxReconnects?: number;
  /** A connection silent this long is treated as cut (the server pings every 15 s). Default 45 000. */
  idleTimeoutMs?: number;
}

export interface WaitOptions extends StreamOptions {
  /** Called with every state the job passes through. */
  onUpdate?: (job: Job) => void;
  /** Polling interval once the stream is given up. Default 2000 (job status allows 60/min). */
  pollIntervalMs?: number;
  /** Overall limit; a `TimeoutError`-like RapportError after it. Default: none. */
  timeoutMs?: number;
}

/** `createAndWait` options: the wait's, plus what the creating POST may carry. */
export interface CreateAndWaitOptions extends WaitOptions {
  idempotencyKey?: string;
  headers?: Record<string, string>;
}

/** The options of the creating request: `timeoutMs` there is the whole wait's, not the POST's. */
export function creationOptions(opts: CreateAndWaitOptions): RequestOptions {
  const { signal, idempotencyKey, headers } = opts;
  return { ...(signal ? { signal } : {}), ...(idempotencyKey ? { idempotencyKey } : {}), ...(headers ? { headers } : {}) };
}

const TERMINAL = new Set(['succeeded', 'failed']);

export function isTerminal(job: Job): boolean {
  return TERMINAL.has(job.status);
}

export class Jobs {
  readonly #http: HttpClient;
  constructor(http: HttpClient) {
    this.#http = http;
  }

  retrieve(id: string, options?: RequestOptions): Promise<Job> {
    return this.#http.request({ ...pathFor('jobs.retrieve', { id }), options });
  }

  list(params: JobListParams = {}, options?: RequestOptions): PagePromise<Job> {
    return new PagePromise((cursor) =>
      this.#http.request<List<Job>>({ ...pathFor('jobs.list'), query: { ...params, cursor }, options }), params.cursor);
  }

  cancel(id: string, options?: RequestOptions): Promise<Job> {
    return this.#http.request({ ...pathFor('jobs.cancel', { id }), options });
  }

  /**
   * The job's events until its terminal one. A connection that drops (or goes silent) is opened
   * again with `Last-Event-ID`, so no event is lost or repeated; HTTP errors are thrown.
   */
  async *stream(id: string, opts: StreamOptions = {}): AsyncGenerator<JobEvent> {
    const state: SseState = { lastEventId: opts.lastEventId ?? null, retryMs: null };
    const maxReconnects = opts.maxReconnects ?? 5;
    let failures = 0;
    for (;;) {
      const idle = new AbortController();
      const signal = opts.signal ? AbortSignal.any([opts.signal, idle.signal]) : idle.signal;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const arm = (): void => {
        clearTimeout(timer);
        timer = setTimeout(() => idle.abort(), opts.idleTimeoutMs ?? 45_000);
      };
      try {
        const headers: Record<string, string> = { Accept: 'text/event-stream' };
        if (state.lastEventId !== null) headers['Last-Event-ID'] = state.lastEventId;
        const res = await this.#http.send({ ...pathFor('jobs.events', { id }), raw: true, options: { signal, headers } });
        if (!res.body) throw new APIConnectionError('Event stream without a body');
        arm();
        for await (const sse of parseSse(res.body, state)) {
          arm();
          failures = 0;
          if (sse.event !== 'job.updated' && sse.event !== 'job.succeeded' && sse.event !== 'job.failed') continue;
          const job = JSON.parse(sse.data) as Job;
          yield { id: sse.id, event: sse.event, job };
          if (sse.event !== 'job.updated' || isTerminal(job)) return;
        }
      } catch (err) {
        if (opts.signal?.aborted) throw new AbortError('Stream was aborted');
        if (err instanceof APIError) throw err;
        if (!(err instanceof RapportError) && !idle.signal.aborted && !isNetworkError(err)) throw err;
      } finally {
        clearTimeout(timer);
      }
      // The body ended or broke before the terminal event: reconnect after the server's advice.
      if (++failures > maxReconnects) throw new APIConnectionError(`Event stream of ${id} kept failing`);
      await sleep(Math.max(state.retryMs ?? 0, failures > 1 ? backoffMs(failures - 2) : 0), opts.signal);
    }
  }

  /**
   * Resolves with the job once it succeeds; throws `JobFailedError` when it fails. Follows the
   * event stream, and polls `GET /v1/jobs/:id` if the stream cannot be used.
   */
  async wait(id: string, opts: WaitOptions = {}): Promise<Job> {
    const deadline = opts.timeoutMs !== undefined ? AbortSignal.timeout(opts.timeoutMs) : undefined;
    const signal = deadline && opts.signal ? AbortSignal.any([opts.signal, deadline]) : (deadline ?? opts.signal);
    const done = (job: Job): Job => {
      if (job.status === 'failed') throw new JobFailedError(id, job.error, job);
      return job;
    };
    try {
      let last: Job | undefined;
      try {
        for await (const ev of this.stream(id, { ...opts, ...(signal ? { signal } : {}) })) {
          last = ev.job;
          opts.onUpdate?.(ev.job);
          if (isTerminal(ev.job)) return done(ev.job);
        }
      } catch (err) {
        // Only a stream that cannot be kept open falls back; API errors (404, 401) are real answers.
        if (!(err instanceof APIConnectionError)) throw err;
      }
      for (;;) {
        const job = await this.retrieve(id, signal ? { signal } : undefined);
        if (job.status !== last?.status || job.progress !== last.progress || job.stage !== last.stage) opts.onUpdate?.(job);
        last = job;
        if (isTerminal(job)) return done(job);
        await sleep(opts.pollIntervalMs ?? 2000, signal);
      }
    } catch (err) {
      if (err instanceof AbortError && deadline?.aborted && !opts.signal?.aborted) {
        throw new TimeoutError(`Timed out after ${opts.timeoutMs} ms waiting for job ${id}`);
      }
      throw err;
    }
  }
}

function isNetworkError(err: unknown): boolean {
  // fetch body reads fail with TypeError ("terminated") or an AbortError DOMException.
  return err instanceof TypeError || (err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError'));
}
