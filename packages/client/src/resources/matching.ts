// /v1/matching: create a job, read its result by id or by job, its evidence, its HTML file, and
// createAndWait.
import type { HttpClient } from '../core/http.ts';
import { endpoints, pathFor } from '../endpoints.ts';
import type { Evidence } from '../evidence-types.ts';
import type { RequestOptions } from '../common-types.ts';
import type { JobReceipt, MatchingJobCreateParams } from '../job-types.ts';
import type { MatchingPayload } from '../result-types.ts';
import { creationOptions, waitForResult, withBodyKey } from './jobs.ts';
import type { CreateAndWaitOptions, Jobs } from './jobs.ts';

export class Matching {
  readonly #http: HttpClient;
  readonly #jobs: Jobs;
  constructor(http: HttpClient, jobs: Jobs) {
    this.#http = http;
    this.#jobs = jobs;
  }

  /** Starts a job (202). The SDK's idempotency key (or yours) makes a retried call return the same job. */
  create(params: MatchingJobCreateParams, options?: RequestOptions): Promise<JobReceipt> {
    const body = { context: 'behavioral_compatibility', ...params };
    return this.#http.request({ ...pathFor('matching.create'), body, options: withBodyKey(params, options) });
  }

  retrieve(id: string, options?: RequestOptions): Promise<MatchingPayload> {
    return this.#http.request({ ...pathFor('matching.retrieve', { id }), options });
  }

  /** The payload once the job succeeded; `null` while it runs or when it failed. */
  byJob(jobId: string, options?: RequestOptions): Promise<MatchingPayload | null> {
    return this.#http.request({ ...pathFor('matching.byJob', { jobId }), options });
  }

  /** The measurements behind the result: every figure its document quotes is found here. */
  evidence(id: string, options?: RequestOptions): Promise<Evidence> {
    return this.#http.request({ ...pathFor('matching.evidence', { id }), options });
  }

  /** The result as one standalone HTML file (inline CSS and SVG figures, no script): save it, print it, send it. */
  async html(id: string, options?: RequestOptions): Promise<string> {
    const res = await this.#http.send({ ...pathFor('matching.html', { id }), options: { ...options, headers: { Accept: endpoints['matching.html'].text, ...options?.headers } } });
    return res.text();
  }

  /** Creates the job, waits for it (stream, else polling) and answers the result; `JobFailedError` when it fails. */
  async createAndWait(params: MatchingJobCreateParams, opts: CreateAndWaitOptions = {}): Promise<MatchingPayload> {
    const receipt = await this.create(params, creationOptions(opts));
    return waitForResult<MatchingPayload>(this.#jobs, receipt.jobId, opts, this);
  }
}
