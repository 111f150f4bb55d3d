// `new Rapport({ apiKey, baseUrl, timeoutMs, maxRetries, fetch })`: the resources on one object.
import { HttpClient } from './core/http.ts';
import type { ClientOptions } from './core/http.ts';
import { Credits } from './resources/credits.ts';
import { Entities } from './resources/entities.ts';
import { Events } from './resources/events.ts';
import { Feedback } from './resources/feedback.ts';
import { Files } from './resources/files.ts';
import { Jobs } from './resources/jobs.ts';
import { Matching } from './resources/matching.ts';
import { Reports } from './resources/reports.ts';
import { Webhooks } from './resources/webhook-deliveries.ts';
import { Workspace } from './resources/workspace.ts';

export class Rapport {
  readonly files: Files;
  readonly matching: Matching;
  readonly jobs: Jobs;
  /** Every job event of the workspace, as one stream. */
  readonly events: Events;
  readonly reports: Reports;
  readonly entities: Entities;
  readonly credits: Credits;
  readonly feedback: Feedback;
  readonly webhooks: Webhooks;
  readonly workspace: Workspace;
  /** The transport, for calls the resources do not cover yet. */
  readonly http: HttpClient;

  constructor(options: ClientOptions = {}) {
    this.http = new HttpClient(options);
    this.files = new Files(this.http);
    this.jobs = new Jobs(this.http);
    this.events = new Events(this.http);
    this.matching = new Matching(this.http, this.jobs);
    this.reports = new Reports(this.http, this.jobs);
    this.entities = new Entities(this.http);
    this.credits = new Credits(this.http);
    this.feedback = new Feedback(this.http);
    this.webhooks = new Webhooks(this.http);
    this.workspace = new Workspace(this.http);
  }

  get baseUrl(): string {
    return this.http.baseUrl;
  }
}
