// What a kind of result job (matching, report) declares, so that one service, one set of routes
// and one runner serve every kind: the request and payload schemas, the rules a schema does not
// express, the route paths and their documentation, how the result is computed, and the names of
// its webhook events. The kinds themselves live in their folders (matching/, reports/) and are
// listed once in registered-kinds.ts.
import type { TSchema } from 'typebox';
import type { ErrorDetail } from '../errors.ts';
import type { RateClass } from '../config.ts';
import type { AnalysisEngine, BuiltDocument, MediaAnalysisMap, MemberInput } from '../analysis/engine.ts';
import type { Member, WebhookTarget } from './job-request.schemas.ts';
import type { OutboxEvent } from './outbox.ts';
import type { JobType } from './jobs.schemas.ts';
import type { IdPrefix } from '../ids.ts';

/** The fields every result-job request has (decisions §5, §9). */
export interface JobRequest {
  target: Member;
  label?: string;
  idempotencyKey?: string;
  webhook?: WebhookTarget;
}

export interface JobKind {
  type: JobType;
  /** The request body: validation, types and the OpenAPI document. */
  request: TSchema;
  /** The stored result as GET answers it. */
  payload: TSchema;
  /** Where its routes live: `${base}/jobs`, `${base}/by-job/:jobId`, `${base}/:${resultParam}` (and /html, /evidence). */
  base: string;
  /** The path parameter naming one result. */
  resultParam: string;
  /** The rate class of job creation (decisions §4); the default class when absent. */
  createRateClass?: RateClass;
  /** What the OpenAPI document says of its routes. */
  doc: {
    tag: string;
    create: string;
    accepted: string;
    byJob: string;
    result: string;
    resultDescription: string;
    html: string;
    evidence: string;
    evidenceDescription: string;
  };
  /** How errors name one result and one job of this kind: "No matching result X.", "No report job X.". */
  names: { result: string; job: string };
  /** The members of a request: a target, and the group it is compared with (empty when the kind has none). */
  members(body: JobRequest): { target: Member; group: Member[] };
  /** Request rules beyond the members' and the webhook's, reported before them (the group's size). */
  ruleErrors(body: JobRequest): ErrorDetail[];
  /** The result: its id prefix, `context` and `output.template`; whether the payload lists the group. */
  result: { idPrefix: IdPrefix; context: string; template: string; withGroup: boolean };
  /** Computes the document from the resolved members. */
  build(engine: AnalysisEngine, input: { target: MemberInput; group: MemberInput[]; media: MediaAnalysisMap }): BuiltDocument;
  /** Its webhook events (decisions §8), and the field of `completed` that names the result. */
  events: { completed: OutboxEvent['type']; failed: OutboxEvent['type']; resultField: string };
}
