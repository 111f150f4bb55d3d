// The field lists of every response and request shape, written once and checked two ways: the
// compiler proves each list matches its TypeScript type in the *-types.ts files exactly
// (required, optional and nullable fields), and test/openapi.test.ts proves it matches the server's OpenAPI
// document. Together they make the server's schema the single source of truth for the SDK.
import type { ListParams } from './common-types.ts';
import type { Job, JobReceipt, MatchingJobCreateParams, ReportJobCreateParams, JobListParams } from './job-types.ts';
import type { MatchingPayload, ReportPayload } from './result-types.ts';
import type { ContentLink, ContentLinkParams, Diarization, DiarizationParams, Media, UploadedMedia, FileListParams, ReanalyzeParams } from './media-types.ts';
import type { EntityMetrics, MediaMetrics, LanguageMeasures, SpeakerMeasures } from './measure-types.ts';
import type { Entity, EntityListParams, EntityUpdateParams, EntityTagParams, EntityMergeParams } from './entity-types.ts';
import type { CreditBalance, CreditTransaction, Feedback, FeedbackCreateParams, WebhookDelivery, Workspace, ApiKey, CreatedApiKey, SigningSecret, ApiKeyCreateParams, DeliveryListParams } from './account-types.ts';
import type {
  EntrainmentCell, Evidence, EvidenceAppearance, EvidenceComponent, EvidenceDimension, EvidenceFigures, EvidenceMember, EvidenceOverall, EvidencePair, EvidenceScale,
} from './evidence-types.ts';

type Keys<T> = keyof T & string;
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
type Exhaustive<All extends string, Given extends string, Kind extends string> =
  [Exclude<All, Given>] extends [never] ? unknown : { [P in Kind]: Exclude<All, Given> };

function shape<T>() {
  return <const R extends readonly RequiredKeys<T>[], const O extends readonly OptionalKeys<T>[], const N extends readonly NullableKeys<T>[]>(
    s: { required: R; optional: O; nullable: N }
      & Exhaustive<RequiredKeys<T>, R[number], 'missingRequired'>
      & Exhaustive<OptionalKeys<T>, O[number], 'missingOptional'>
      & Exhaustive<NullableKeys<T>, N[number], 'missingNullable'>,
  ): Shape => s;
}

/** The values of a string enumeration, exhaustive over its type. */
function values<V extends string>() {
  return <const L extends readonly V[]>(l: L & Exhaustive<V, L[number], 'missing'>): readonly string[] => l;
}

/**
 * The shapes that sit inside other shapes, by the names `nestedFields` gives them. A field names
 * the shape of its value, of its list's items, or of its value when not null.
 */
interface NestedShapes {
  EvidenceScale: EvidenceScale;
  EvidenceMember: EvidenceMember;
  EvidenceAppearance: EvidenceAppearance;
  EvidencePair: EvidencePair;
  EvidenceOverall: EvidenceOverall;
  EvidenceComponent: EvidenceComponent;
  EvidenceFigures: EvidenceFigures;
  EntrainmentCell: EntrainmentCell;
  EvidenceDimension: EvidenceDimension;
  SpeakerMeasures: SpeakerMeasures;
  LanguageMeasures: LanguageMeasures;
}
type Inner<V> = NonNullable<V> extends readonly (infer E)[] ? E : NonNullable<V>;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type NestedName<V> = { [N in keyof NestedShapes]: Same<NestedShapes[N], Inner<V>> extends true ? N : never }[keyof NestedShapes];
type NestedKeys<T> = { [K in Keys<T>]-?: [NestedName<T[K]>] extends [never] ? never : K }[Keys<T>];

/** Every field of T whose value is one of NestedShapes, each with that shape's name: none left out, none wrong. */
function nested<T>() {
  return (fields: { [K in NestedKeys<T>]-?: NestedName<T[K]> }): Readonly<Record<string, string>> => fields;
}

/** Query parameters of list calls, exhaustive over the params type. */
function query<T>() {
  return <const Q extends readonly Keys<T>[]>(q: Q & Exhaustive<Keys<T>, Q[number], 'missing'>): readonly string[] => q;
}

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
  EvidenceScale: shape<EvidenceScale>()({ required: ['min', 'max'], optional: [], nullable: [] }),
  EvidenceMember: shape<EvidenceMember>()({
    required: ['ref', 'name', 'shortName', 'entityId', 'metrics', 'appearances', 'mediaCount', 'transcribedMediaCount', 'speechMin', 'interruptionsPerMin',
      'pitchMedianHz', 'profileConfidence', 'profileTrust'],
    optional: [],
    nullable: ['entityId', 'interruptionsPerMin', 'pitchMedianHz'],
  }),
  EvidenceAppearance: shape<EvidenceAppearance>()({
    required: ['mediaId', 'speakerIndex', 'speechSec', 'transcribed', 'countUncertain', 'separation', 'trust', 'noAudio'], optional: [], nullable: ['speechSec', 'separation'],
  }),
  EvidencePair: shape<EvidencePair>()({
    required: ['member', 'name', 'met', 'sharedMediaIds', 'sharedMediaCount', 'overall', 'trust', 'components'], optional: [], nullable: [],
  }),
  EvidenceOverall: shape<EvidenceOverall>()({ required: ['score', 'confidence'], optional: [], nullable: ['score'] }),
  EvidenceComponent: shape<EvidenceComponent>()({
    required: ['key', 'name', 'score', 'confidence', 'weight', 'inputs', 'figures'], optional: ['cells'], nullable: ['score'],
  }),
  EvidenceFigures: shape<EvidenceFigures>()({ required: ['measured', 'possible'], optional: [], nullable: [] }),
  EntrainmentCell: shape<EntrainmentCell>()({
    required: ['feature', 'measure', 'observed', 'baseline', 'score', 'exchanges'], optional: [], nullable: ['observed', 'baseline', 'score'],
  }),
  EvidenceDimension: shape<EvidenceDimension>()({ required: ['key', 'name', 'score', 'pairs', 'singleFigure'], optional: [], nullable: [] }),
  SpeakerMeasures: shape<SpeakerMeasures>()({
    required: ['speechSec', 'talkShare', 'turns', 'medianTurnSec', 'longestTurnSec', 'pausesPerMin', 'medianPauseSec', 'speakingRateSylPerSec',
      'articulationRateSylPerSec', 'pitchMedianSt', 'pitchRangeSt', 'pitchVariabilitySt', 'loudnessMeanDb', 'loudnessVariabilityDb', 'medianGapBeforeTurnSec',
      'interruptionsMade', 'interruptionsReceived', 'backchannels', 'overlapSec', 'language'],
    optional: [],
    nullable: ['medianTurnSec', 'longestTurnSec', 'pausesPerMin', 'medianPauseSec', 'speakingRateSylPerSec', 'articulationRateSylPerSec', 'pitchMedianSt',
      'pitchRangeSt', 'pitchVariabilitySt', 'loudnessMeanDb', 'loudnessVariabilityDb', 'medianGapBeforeTurnSec', 'interruptionsMade', 'interruptionsReceived',
      'backchannels', 'overlapSec', 'language'],
  }),
  LanguageMeasures: shape<LanguageMeasures>()({
    required: ['words', 'wordsPerMinute', 'questionRate', 'hedgeRate', 'firstPersonSingularRate', 'firstPersonPluralRate', 'sentiment', 'functionWords'],
    optional: ['lexicon'],
    nullable: ['wordsPerMinute', 'lexicon', 'hedgeRate', 'firstPersonSingularRate', 'firstPersonPluralRate', 'sentiment', 'functionWords'],
  }),
};

/**
 * Where a shape holds others (by their key in responseFields): the drift test follows these into
 * the document's schema, and there every object-valued field must be one of them. Only the
 * evidence is followed this deep so far.
 */
export const nestedFields: Record<string, Readonly<Record<string, string>>> = {
  Evidence: nested<Evidence>()({ scale: 'EvidenceScale', target: 'EvidenceMember', group: 'EvidenceMember', pairs: 'EvidencePair', dimensions: 'EvidenceDimension' }),
  EvidenceMember: nested<EvidenceMember>()({ metrics: 'SpeakerMeasures', appearances: 'EvidenceAppearance' }),
  EvidencePair: nested<EvidencePair>()({ overall: 'EvidenceOverall', components: 'EvidenceComponent' }),
  EvidenceComponent: nested<EvidenceComponent>()({ cells: 'EntrainmentCell', figures: 'EvidenceFigures' }),
  SpeakerMeasures: nested<SpeakerMeasures>()({ language: 'LanguageMeasures' }),
};

/** The values of enumerated fields (`Shape.field`) of the shapes followed above. */
export const enumFields: Record<string, readonly string[]> = {
  'Evidence.kind': values<Evidence['kind']>()(['matching', 'report']),
  'EntrainmentCell.feature': values<EntrainmentCell['feature']>()(['pitch', 'loudness', 'rate']),
  'EntrainmentCell.measure': values<EntrainmentCell['measure']>()(['proximity', 'convergence', 'synchrony']),
};

/** Request bodies. `sdkDefaults` are required on the wire but filled in by the SDK. */
export const requestFields: Record<string, Shape & { sdkDefaults?: readonly string[] }> = {
  'matching.create': {
    ...shape<MatchingJobCreateParams>()({
      required: ['target', 'group'], optional: ['context', 'label', 'idempotencyKey', 'webhook'], nullable: [],
    }),
    sdkDefaults: ['context'],
  },
  'reports.create': shape<ReportJobCreateParams>()({
    required: ['target'], optional: ['context', 'label', 'idempotencyKey', 'webhook'], nullable: [],
  }),
  'files.reanalyze': shape<ReanalyzeParams>()({
    required: [], optional: ['numSpeakers', 'minSpeakers', 'maxSpeakers'], nullable: ['numSpeakers', 'minSpeakers', 'maxSpeakers'],
  }),
  'files.createContentLink': shape<ContentLinkParams>()({ required: [], optional: ['expiresInSec'], nullable: [] }),
  'feedback.create': shape<FeedbackCreateParams>()({ required: ['resultId', 'rating'], optional: ['comment'], nullable: [] }),
  'entities.update': shape<EntityUpdateParams>()({ required: ['label'], optional: [], nullable: ['label'] }),
  'entities.tag': shape<EntityTagParams>()({ required: ['tags'], optional: [], nullable: [] }),
  'entities.merge': shape<EntityMergeParams>()({ required: ['into', 'from'], optional: [], nullable: [] }),
  'workspace.keys.create': shape<ApiKeyCreateParams>()({ required: [], optional: ['scope', 'name'], nullable: [] }),
};

export const queryFields: Record<string, readonly string[]> = {
  'files.list': query<FileListParams>()(['limit', 'cursor', 'outdated']),
  'files.diarization': query<DiarizationParams>()(['format']),
  'jobs.list': query<JobListParams>()(['limit', 'cursor', 'status', 'type']),
  'entities.list': query<EntityListParams>()(['limit', 'cursor', 'tag', 'q', 'include']),
  'credits.transactions': query<ListParams>()(['limit', 'cursor']),
  'feedback.list': query<ListParams>()(['limit', 'cursor']),
  'webhooks.deliveries.list': query<DeliveryListParams>()(['limit', 'cursor', 'jobId', 'status']),
  'workspace.keys.list': query<ListParams>()(['limit', 'cursor']),
};
