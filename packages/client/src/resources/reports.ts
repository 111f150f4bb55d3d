// /v1/reports: behavioral profile jobs of one target (decisions.md §9).
import type { HttpClient } from '../core/http.ts';
import { endpoints, pathFor } from '../endpoints.ts';
import type { Evidence } from '../evidence-types.ts';
import type { RequestOptions } from '../common-types.ts';
import type { JobReceipt, ReportJobCreateParams } from '../job-types.ts';
import type { ReportPayload } from '../result-types.ts';
import { creationOptions, waitForResult, withBodyKey } from './jobs.ts';
import type { CreateAndWaitOptions, Jobs } from './jobs.ts';

export class Reports {
  readonly #http: HttpClient;
  readonly #jobs: Jobs;
  constructor(http: HttpClient, jobs: Jobs) {
    this.#http = http;
    this.#jobs = jobs;
  }

  create(params: ReportJobCreateParams, options?: RequestOptions): Promise<JobReceipt> {
    return this.#http.request({ ...pathFor('reports.create'), body: params, options: withBodyKey(params, options) });
  }

  retrieve(id: string, options?: RequestOptions): Promise<ReportPayload> {
    return this.#http.request({ ...pathFor('reports.retrieve', { id }), options });
  }

  /** The measurements behind the report (its figures are drawn from them), as for matching. */
  evidence(id: string, options?: RequestOptions): Promise<Evidence> {
    return this.#http.request({ ...pathFor('reports.evidence', { id }), options });
  }

  /** The report as one standalone HTML file (inline CSS and SVG figures, no script). */
  async html(id: string, options?: RequestOptions): Promise<string> {
    const res = await this.#http.send({ ...pathFor('reports.html', { id }), options: { ...options, headers: { Accept: endpoints['reports.html'].text, ...options?.headers } } });
    return res.text();
  }

  byJob(jobId: string, options?: RequestOptions): Promise<ReportPayload | null> {
    return this.#http.request({ ...pathFor('reports.byJob', { jobId }), options });
  }

  async createAndWait(params: ReportJobCreateParams, opts: CreateAndWaitOptions = {}): Promise<ReportPayload> {
    const receipt = await this.create(params, creationOptions(opts));
    return waitForResult<ReportPayload>(this.#jobs, receipt.jobId, opts, this);
  }
}
