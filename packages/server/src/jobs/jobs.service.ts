// Creating, reading, listing and cancelling jobs, shared by matching and report jobs: credits
// are reserved with the job, the job is queued in the same transaction, idempotency keys are
// honoured, and the receipt carries an estimate of the wait.
import { ApiError } from '../errors.ts';
import type { JobError } from './job-failure.ts';
import { InsufficientCredits } from '../credits/credits.ledger.ts';
import { requestHash, type IdempotencyStore, type IdempotencyScope } from '../idempotency/idempotency.store.ts';
import type { JobStore, OutboxEvent } from './jobs.store.ts';
import type { Job, JobListQuery, JobType } from './jobs.schemas.ts';
import type { JobReceipt } from './job-request.schemas.ts';
import type { AuthContext } from '../workspace/auth.ts';
import { InvalidCursor } from '../store/cursor.ts';
import { jobKind } from './registered-kinds.ts';
import { waitSec } from './wait-estimate.ts';

/** A matching or report job costs 1 credit (decisions §10). */
export const JOB_COST = 1;

export interface CreatedJob {
  statusCode: number;
  receipt: JobReceipt;
  headers: Record<string, string>;
}

export interface JobServiceOptions {
  /** Tasks a worker runs at once (WORKER_CONCURRENCY): the slots `estimatedWaitSec` shares the queue among. */
  workerConcurrency: number;
}

export class JobService {
  private readonly jobs: JobStore;
  private readonly idempotency: IdempotencyStore;
  private readonly wake: () => void;
  private readonly workerConcurrency: number;

  constructor(jobs: JobStore, idempotency: IdempotencyStore, wake: () => void, opts: JobServiceOptions) {
    // Validated with the configuration (1 to 64); checked again here because a zero would make
    // every estimate Infinity, which JSON turns into null.
    if (!Number.isInteger(opts.workerConcurrency) || opts.workerConcurrency < 1) throw new RangeError(`workerConcurrency must be a positive integer, got ${opts.workerConcurrency}`);
    this.jobs = jobs;
    this.idempotency = idempotency;
    this.wake = wake;
    this.workerConcurrency = opts.workerConcurrency;
  }

  /**
   * Creates a job once per idempotency key. `bodyKey` is the body's `idempotencyKey`,
   * `headerKey` the `Idempotency-Key` header; both present and different is a 400.
   */
  async create(
    auth: AuthContext,
    input: { type: JobType; route: string; body: unknown; label: string | undefined; bodyKey: string | undefined; headerKey: string | undefined },
  ): Promise<CreatedJob & { replayed: boolean }> {
    // The caller checked that the two keys agree when both are sent (idempotencyKeyErrors, with
    // the request's other rules, before its references).
    const key = input.bodyKey ?? input.headerKey;
    const scope: IdempotencyScope | null = key === undefined ? null : { workspaceId: auth.workspaceId, route: input.route, key };
    if (scope) {
      const taken = await this.idempotency.take(scope, requestHash(input.body));
      if (taken.state === 'replay') {
        return { ...(taken.response as unknown as CreatedJob), receipt: taken.response.body as JobReceipt, replayed: true };
      }
      if (taken.state === 'mismatch') throw new ApiError('IDEMPOTENCY_KEY_REUSED', 'This idempotency key was already used with a different request body.');
      if (taken.state === 'in_flight') throw new ApiError('IDEMPOTENCY_KEY_IN_USE');
    }
    try {
      const estimatedWaitSec = await this.estimateWaitSec(auth.workspaceId);
      let created: CreatedJob | null = null;
      const job = await this.jobs.create({
        workspaceId: auth.workspaceId,
        type: input.type,
        ...(input.label !== undefined ? { label: input.label } : {}),
        request: input.body,
        cost: JOB_COST,
        onCreated: (j) => {
          created = {
            statusCode: 202,
            receipt: { jobId: j.id, status: 'queued', stage: j.stage, estimatedWaitSec },
            headers: { location: `/v1/jobs/${j.id}` },
          };
          return scope ? { scope, response: { statusCode: 202, body: created.receipt, headers: created.headers } } : undefined;
        },
      });
      this.wake();
      if (!created) throw new Error(`job ${job.id} was created without its receipt`);
      return { ...(created as CreatedJob), replayed: false };
    } catch (err) {
      if (scope) await this.idempotency.release(scope);
      if (err instanceof InsufficientCredits) {
        throw new ApiError('INSUFFICIENT_CREDITS', `This job needs ${err.needed} credit; ${err.available} available.`);
      }
      throw err;
    }
  }

  /** The work the worker runs before the job (every workspace's running tasks, the workspace's queue, others' turns first: wait-estimate.ts), shared by its slots. */
  private async estimateWaitSec(workspaceId: string): Promise<number> {
    return waitSec(await this.jobs.workAheadSec(workspaceId), this.workerConcurrency);
  }

  async get(auth: AuthContext, id: string, type?: JobType): Promise<Job> {
    const job = await this.jobs.get(auth.workspaceId, id);
    if (!job || (type && job.type !== type)) throw new ApiError('NOT_FOUND', `No job ${id}.`);
    return job;
  }

  async list(auth: AuthContext, query: JobListQuery) {
    try {
      return await this.jobs.list(auth.workspaceId, query);
    } catch (err) {
      if (err instanceof InvalidCursor) throw new ApiError('VALIDATION_FAILED', err.message, { details: [{ path: '/query/cursor', message: err.message }] });
      throw err;
    }
  }

  async cancel(auth: AuthContext, id: string): Promise<Job> {
    const job = await this.get(auth, id);
    if (job.status === 'succeeded' || job.status === 'failed') {
      throw new ApiError('CONFLICT', `Job ${id} has already ${job.status}; only queued or running jobs can be cancelled.`);
    }
    const error: JobError = { code: 'canceled', message: 'The job was cancelled by the client.' };
    const stored = await this.jobs.load(id);
    const ended = await this.jobs.fail(id, error, failureOutbox(job, error, stored?.request));
    if (!ended) {
      const now = await this.get(auth, id);
      throw new ApiError('CONFLICT', `Job ${id} has already ${now.status}.`);
    }
    return ended;
  }
}

/** The webhook event of a failed job (decisions §8). */
export function failureOutbox(job: Job, error: JobError, request: unknown): OutboxEvent {
  return {
    type: jobKind(job.type).events.failed,
    data: { jobId: job.id, status: 'failed', error },
    webhook: webhookOf(request),
  };
}

export function webhookOf(request: unknown): OutboxEvent['webhook'] {
  const w = (request as { webhook?: { url: string; headers?: Record<string, string> } } | null)?.webhook;
  return w ? { url: w.url, ...(w.headers ? { headers: w.headers } : {}) } : undefined;
}
