// The field lists of every response and request shape, written once and checked two ways: the
// compiler proves each list matches its TypeScript type in the *-types.ts files exactly
// (required, optional and nullable fields), and test/openapi.test.ts proves it matches the
// server's OpenAPI document. Together they make the server's schema the single source of truth
// for the SDK. The shapes these hold, down to the last nested object, and the enumerated values
// of every field are in nested-fields.ts.
import type { ListParams } from './common-types.ts';
import type { Job, JobReceipt, MatchingJobCreateParams, ReportJobCreateParams, JobListParams } from './job-types.ts';
import type { MatchingPayload, ReportPayload } from './result-types.ts';
import type { ContentLink, ContentLinkParams, Diarization, DiarizationParams, Media, UploadedMedia, FileListParams, ReanalyzeParams } from './media-types.ts';
import type { EntityMetrics, MediaMetrics, MetricsParams } from './measure-types.ts';
import type { Entity, EntityListParams, EntityUpdateParams, EntityTagParams, EntityMergeParams } from './entity-types.ts';
import type { CreditBalance, CreditTransaction, Feedback, FeedbackCreateParams, WebhookDelivery, Workspace, ApiKey, CreatedApiKey, SigningSecret, ApiKeyCreateParams, DeliveryListParams } from './account-types.ts';
import type { Evidence } from './evidence-types.ts';

export type Keys<T> = keyof T & string;
/** Keys without `?`. */
type RequiredKeys<T> = { [K in Keys<T>]-?: object extends Pick<T, K> ? never : K }[Keys<T>];
type OptionalKeys<T> = Exclude<Keys<T>, RequiredKeys<T>>;
type NullableKeys<T> = { [K in Keys<T>]-?: null extends T[K] ? K : never }[Keys<T>];

export interface Shape {
  required: readonly string[];
  optional: readonly string[];
  nullable: readonly string[];
}

/** Each list must name every key of its kind: a missing one is a compile error naming it. */
export type Exhaustive<All extends string | number, Given extends string | number, Kind extends string> =
  [Exclude<All, Given>] extends [never] ? unknown : { [P in Kind]: Exclude<All, Given> };

export function shape<T>() {
  return <const R extends readonly RequiredKeys<T>[], const O extends readonly OptionalKeys<T>[], const N extends readonly NullableKeys<T>[]>(
    s: { required: R; optional: O; nullable: N }
      & Exhaustive<RequiredKeys<T>, R[number], 'missingRequired'>
      & Exhaustive<OptionalKeys<T>, O[number], 'missingOptional'>
      & Exhaustive<NullableKeys<T>, N[number], 'missingNullable'>,
  ): Shape => s;
}

/** Query parameters of list calls, exhaustive over the params type. */
function query<T>() {
  return <const Q extends readonly Keys<T>[]>(q: Q & Exhaustive<Keys<T>, Q[number], 'missing'>): readonly string[] => q;
}

/** The shapes the routes answer, by the names endpoints.ts gives them. */
export const responseFields: Record<string, Shape> = {
  JobReceipt: shape<JobReceipt>()({ required: ['jobId', 'status'], optional: ['stage', 'estimatedWaitSec'], nullable: [] }),
  Job: shape<Job>()({
    required: ['id', 'type', 'status', 'stage', 'progress', 'createdAt', 'startedAt', 'finishedAt', 'resultId', 'error'],
    optional: ['label', 'estimatedWaitSec'],
    nullable: ['startedAt', 'finishedAt', 'resultId', 'error'],
  }),
  MatchingPayload: shape<MatchingPayload>()({
    required: ['id', 'context', 'createdAt', 'output', 'target', 'group'],
    optional: ['jobId', 'label', 'json', 'markdown'],
    nullable: ['json', 'markdown'],
  }),
  ReportPayload: shape<ReportPayload>()({
    required: ['id', 'context', 'createdAt', 'output', 'target'],
    optional: ['jobId', 'label', 'json', 'markdown'],
    nullable: ['json', 'markdown'],
  }),
  Media: shape<Media>()({
    required: ['id', 'kind', 'filename', 'contentType', 'sizeBytes', 'sha256', 'durationSec', 'hasTranscript', 'analysis', 'createdAt'],
    optional: ['label'],
    nullable: ['durationSec'],
  }),
  UploadedMedia: shape<UploadedMedia>()({
    required: ['id', 'kind', 'filename', 'contentType', 'sizeBytes', 'sha256', 'durationSec', 'hasTranscript', 'analysis', 'createdAt', 'duplicate'],
    optional: ['label'],
    nullable: ['durationSec'],
  }),
  ContentLink: shape<ContentLink>()({ required: ['url', 'expiresAt'], optional: [], nullable: [] }),
  Diarization: shape<Diarization>()({ required: ['mediaId', 'durationSec', 'segments'], optional: [], nullable: ['durationSec'] }),
  MediaMetrics: shape<MediaMetrics>()({ required: ['mediaId', 'speakers'], optional: ['notMeasured'], nullable: [] }),
  EntityMetrics: shape<EntityMetrics>()({ required: ['entityId', 'label', 'metrics', 'appearances'], optional: [], nullable: ['label', 'metrics'] }),
  Entity: shape<Entity>()({
    required: ['id', 'label', 'name', 'tags', 'speechSec', 'enough', 'appearances', 'createdAt', 'updatedAt'], optional: [], nullable: ['label'],
  }),
  CreditBalance: shape<CreditBalance>()({ required: ['balance', 'reserved', 'available', 'updatedAt'], optional: [], nullable: [] }),
  CreditTransaction: shape<CreditTransaction>()({
    required: ['id', 'kind', 'amount', 'balanceAfter', 'createdAt'], optional: ['jobId', 'mediaId'], nullable: [],
  }),
  Feedback: shape<Feedback>()({ required: ['id', 'resultId', 'rating', 'createdAt'], optional: ['comment'], nullable: [] }),
  WebhookDelivery: shape<WebhookDelivery>()({
    required: ['id', 'eventId', 'eventType', 'jobId', 'url', 'status', 'attemptCount', 'nextAttemptAt', 'lastStatusCode', 'lastError', 'createdAt', 'updatedAt'],
    optional: ['attempts'],
    nullable: ['nextAttemptAt', 'lastStatusCode', 'lastError'],
  }),
  Workspace: shape<Workspace>()({ required: ['id', 'name', 'createdAt', 'updatedAt', 'quotas', 'usage'], optional: [], nullable: [] }),
  ApiKey: shape<ApiKey>()({
    required: ['id', 'scope', 'name', 'hint', 'createdAt', 'revokedAt'], optional: [], nullable: ['name', 'revokedAt'],
  }),
  CreatedApiKey: shape<CreatedApiKey>()({
    required: ['id', 'scope', 'name', 'hint', 'createdAt', 'revokedAt', 'apiKey'], optional: [], nullable: ['name', 'revokedAt'],
  }),
  SigningSecret: shape<SigningSecret>()({
    required: ['signingSecret', 'previousSigningSecret', 'previousExpiresAt'], optional: [], nullable: ['previousSigningSecret', 'previousExpiresAt'],
  }),
  Evidence: shape<Evidence>()({
    required: ['kind', 'scale', 'method', 'target', 'group', 'groupSize', 'pairs', 'groupOverall', 'dimensions'], optional: [], nullable: ['groupOverall'],
  }),
};

/**
 * Request bodies, by route. `type` names the body's type, under which nested-fields.ts lists the
 * shapes it holds and the values of its enumerated fields. `sdkDefaults` are required on the wire
 * but filled in by the SDK.
 */
export const requestFields: Record<string, Shape & { type: string; sdkDefaults?: readonly string[] }> = {
  'matching.create': {
    type: 'MatchingJobCreateParams',
    ...shape<MatchingJobCreateParams>()({
      required: ['target', 'group'], optional: ['context', 'label', 'idempotencyKey', 'webhook'], nullable: [],
    }),
    sdkDefaults: ['context'],
  },
  'reports.create': {
    type: 'ReportJobCreateParams',
    ...shape<ReportJobCreateParams>()({ required: ['target'], optional: ['context', 'label', 'idempotencyKey', 'webhook'], nullable: [] }),
  },
  'files.reanalyze': {
    type: 'ReanalyzeParams',
    ...shape<ReanalyzeParams>()({ required: [], optional: ['numSpeakers', 'minSpeakers', 'maxSpeakers'], nullable: ['numSpeakers', 'minSpeakers', 'maxSpeakers'] }),
  },
  'files.createContentLink': { type: 'ContentLinkParams', ...shape<ContentLinkParams>()({ required: [], optional: ['expiresInSec'], nullable: [] }) },
  'feedback.create': { type: 'FeedbackCreateParams', ...shape<FeedbackCreateParams>()({ required: ['resultId', 'rating'], optional: ['comment'], nullable: [] }) },
  'entities.update': { type: 'EntityUpdateParams', ...shape<EntityUpdateParams>()({ required: ['label'], optional: [], nullable: ['label'] }) },
  'entities.tag': { type: 'EntityTagParams', ...shape<EntityTagParams>()({ required: ['tags'], optional: [], nullable: [] }) },
  'entities.merge': { type: 'EntityMergeParams', ...shape<EntityMergeParams>()({ required: ['into', 'from'], optional: [], nullable: [] }) },
  'workspace.keys.create': { type: 'ApiKeyCreateParams', ...shape<ApiKeyCreateParams>()({ required: [], optional: ['scope', 'name'], nullable: [] }) },
};

export const queryFields: Record<string, readonly string[]> = {
  'files.list': query<FileListParams>()(['limit', 'cursor', 'outdated']),
  'files.diarization': query<DiarizationParams>()(['format']),
  'files.metrics': query<MetricsParams>()(['format']),
  'entities.metrics': query<MetricsParams>()(['format']),
  'jobs.list': query<JobListParams>()(['limit', 'cursor', 'status', 'type']),
  'entities.list': query<EntityListParams>()(['limit', 'cursor', 'tag', 'q', 'include']),
  'credits.transactions': query<ListParams>()(['limit', 'cursor']),
  'feedback.list': query<ListParams>()(['limit', 'cursor']),
  'webhooks.deliveries.list': query<DeliveryListParams>()(['limit', 'cursor', 'jobId', 'status']),
  'workspace.keys.list': query<ListParams>()(['limit', 'cursor']),
};
