// /v1/jobs: get, list, cancel, the progress stream, and `wait`, which follows the stream and
// falls back to polling when streaming is not possible (proxies that buffer, runtimes without it).
import { AbortError, APIConnectionError, JobFailedError, TimeoutError } from '../core/errors.ts';
import { reconnectingStream } from '../core/event-stream.ts';
import type { StreamOptions } from '../core/event-stream.ts';
import { PagePromise } from '../core/pagination.ts';
import type { ServerSentEvent } from '../core/sse.ts';
import { sleep } from '../core/http.ts';
import type { HttpClient } from '../core/http.ts';
import { pathFor } from '../endpoints.ts';
import type { List, RequestOptions } from '../common-types.ts';
import type { Job, JobEvent, JobListParams } from '../job-types.ts';

export interface WaitOptions extends StreamOptions {
  /** Called with every state the job passes through. */
  onUpdate?: (job: Job) => void;
  /** Polling interval once the stream is given up. Default 2000 (job status allows 60/min). */
  pollIntervalMs?: number;
  /** Overall limit of the wait, after which it throws `TimeoutError`. Default: none. */
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

/**
 * The shared tail of `createAndWait`: wait for the job (stream, else polling), then read its
 * result by id, or by job when the job resource carries no result id; `JobFailedError` when
 * the job fails.
 */
export async function waitForResult<P>(
  jobs: Jobs,
  jobId: string,
  opts: CreateAndWaitOptions,
  read: { retrieve(id: string, o?: RequestOptions): Promise<P>; byJob(jobId: string, o?: RequestOptions): Promise<P | null> },
): Promise<P> {
  const job = await jobs.wait(jobId, opts);
  const options = opts.signal ? { signal: opts.signal } : undefined;
  if (job.resultId) return read.retrieve(job.resultId, options);
  const payload = await read.byJob(jobId, options);
  if (payload === null) throw new Error(`Job ${jobId} succeeded without a result`);
  return payload;
}

/**
 * A body `idempotencyKey` becomes the header too: the server refuses a header and a body key
 * that differ (decisions.md §5), and the SDK would otherwise generate a header of its own.
 */
export function withBodyKey(params: { idempotencyKey?: string }, options?: RequestOptions): RequestOptions | undefined {
  if (!params.idempotencyKey || options?.idempotencyKey) return options;
  return { ...options, idempotencyKey: params.idempotencyKey };
}

export type { StreamOptions };

const TERMINAL = new Set(['succeeded', 'failed']);

/** A job event from its SSE frame; other event names (future ones) give null and are skipped. */
export function toJobEvent(sse: ServerSentEvent): JobEvent | null {
  if (sse.event !== 'job.updated' && sse.event !== 'job.succeeded' && sse.event !== 'job.failed') return null;
  return { id: sse.id, event: sse.event, job: JSON.parse(sse.data) as Job };
}

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
   * The job's events until its terminal one, resuming with `Last-Event-ID` across cuts
   * (core/event-stream.ts); HTTP errors are thrown.
   */
  async *stream(id: string, opts: StreamOptions = {}): AsyncGenerator<JobEvent> {
    let done = false;
    for await (const sse of reconnectingStream(this.#http, pathFor('jobs.events', { id }), opts, () => done)) {
      const event = toJobEvent(sse);
      if (!event) continue;
      done = event.event !== 'job.updated' || isTerminal(event.job);
      yield event;
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
