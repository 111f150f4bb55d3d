// The shapes that sit inside the ones fields.ts lists, followed down to the last nested object
// (a job's error, a media's analysis and its warnings, a result's members and blocks, the
// evidence, the measures), and the values of every enumerated field. The compiler holds each
// table to the TypeScript types: a nested shape a type holds and the table leaves out, a field
// list that misses a key, an enumeration that misses a value, is a compile error. The drift test
// (test/openapi.test.ts) follows the same tables into the server's document, where every object
// a field holds must be named here and every enumerated field listed.
import { shape, type Exhaustive, type Keys, type Shape } from './fields.ts';
import type { EntityReference, Job, JobError, JobReceipt, JobStage, MatchingJobCreateParams, MediaTarget, ReportJobCreateParams, Selector, TimeRange, WebhookSpec } from './job-types.ts';
import type {
  CardBlock, GridBlock, IllustrationBlock, MatchingOutput, MatchingPayload, ReportOutput, ReportPayload, ResolvedMember, ResultDocument, Section, TextBlock,
} from './result-types.ts';
import type {
  Diarization, DiarizationSegment, HintNotMetWarning, Media, MediaAnalysis, MediaAnalysisStage, Speaker, SpeakerCountUncertainWarning, SpeakerHints, UploadedMedia,
} from './media-types.ts';
import type { EntityMetrics, LanguageMeasures, MeasuredAppearance, MediaMetrics, NotMeasured, SpeakerMeasures, SpeakerMetrics } from './measure-types.ts';
import type { Entity, EntityAppearance } from './entity-types.ts';
import type { ApiKey, ApiKeyCreateParams, CreatedApiKey, CreditTransaction, DeliveryAttempt, WebhookDelivery, Workspace, WorkspaceQuotaFigures } from './account-types.ts';
import type {
  EntrainmentCell, Evidence, EvidenceAppearance, EvidenceComponent, EvidenceDimension, EvidenceFigures, EvidenceMember, EvidenceOverall, EvidencePair, EvidenceScale,
} from './evidence-types.ts';

/**
 * The shapes that sit inside other shapes, by the names `nestedFields` gives them. A field names
 * the shapes its value is made of: its value's, its list's items', each member of a union (a
 * result member's source, a section's blocks, a media's warnings), null aside.
 */
interface NestedShapes {
  JobError: JobError;
  ResolvedMember: ResolvedMember;
  EntityReference: EntityReference;
  MediaTarget: MediaTarget;
  Selector: Selector;
  TimeRange: TimeRange;
  WebhookSpec: WebhookSpec;
  MatchingOutput: MatchingOutput;
  ReportOutput: ReportOutput;
  ResultDocument: ResultDocument;
  Section: Section;
  CardBlock: CardBlock;
  TextBlock: TextBlock;
  GridBlock: GridBlock;
  IllustrationBlock: IllustrationBlock;
  MediaAnalysis: MediaAnalysis;
  Speaker: Speaker;
  SpeakerHints: SpeakerHints;
  HintNotMetWarning: HintNotMetWarning;
  SpeakerCountUncertainWarning: SpeakerCountUncertainWarning;
  DiarizationSegment: DiarizationSegment;
  SpeakerMetrics: SpeakerMetrics;
  NotMeasured: NotMeasured;
  MeasuredAppearance: MeasuredAppearance;
  EntityAppearance: EntityAppearance;
  DeliveryAttempt: DeliveryAttempt;
  WorkspaceQuotaFigures: WorkspaceQuotaFigures;
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
/** The parts a value is made of: each member of a union, a list's items, null and undefined aside. */
type Parts<V> = V extends readonly (infer E)[] ? Parts<E> : V extends null | undefined ? never : V;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type NameOf<P> = { [N in keyof NestedShapes]: Same<NestedShapes[N], P> extends true ? N : never }[keyof NestedShapes];
type NamesIn<P> = P extends unknown ? NameOf<P> : never;
type NestedNames<V> = NamesIn<Parts<V>>;
type NestedKeys<T> = { [K in Keys<T>]-?: [NestedNames<T[K]>] extends [never] ? never : K }[Keys<T>];
type Listed<L> = L extends readonly (infer E)[] ? E : never;

/**
 * Every field of T whose value is made of NestedShapes, each with the names of those shapes: no
 * field left out or extra, no shape of a union left out or wrong.
 */
function nested<T>() {
  return <const F extends { [K in NestedKeys<T>]-?: readonly NestedNames<T[K]>[] }>(
    fields: F
      & { [K in keyof F]: K extends Keys<T> ? Exhaustive<NestedNames<T[K]>, Listed<F[K]>, 'missing'> : never }
      & Record<Exclude<keyof F, NestedKeys<T>>, never>,
  ): Readonly<Record<string, readonly string[]>> => fields;
}

/** The values of an enumeration (strings, or numbers such as `schemaVersion`), exhaustive over its type. */
function values<V extends string | number>() {
  return <const L extends readonly V[]>(l: L & Exhaustive<V, L[number], 'missing'>): readonly (string | number)[] => l;
}

/** The field lists of the nested shapes, by their names in NestedShapes. */
export const nestedShapeFields: Record<string, Shape> = {
  JobError: shape<JobError>()({ required: ['code', 'message'], optional: [], nullable: [] }),
  ResolvedMember: shape<ResolvedMember>()({ required: ['source'], optional: ['entityId', 'resolvedLabel'], nullable: ['resolvedLabel'] }),
  EntityReference: shape<EntityReference>()({ required: ['type', 'entityId'], optional: [], nullable: [] }),
  MediaTarget: shape<MediaTarget>()({ required: ['type', 'mediaId', 'selector'], optional: [], nullable: [] }),
  Selector: shape<Selector>()({
    required: ['strategy'], optional: ['on_miss', 'entity_id', 'hint', 'speaker_index', 'timerange'], nullable: ['entity_id', 'hint', 'speaker_index', 'timerange'],
  }),
  TimeRange: shape<TimeRange>()({ required: [], optional: ['start_seconds', 'end_seconds'], nullable: ['start_seconds', 'end_seconds'] }),
  WebhookSpec: shape<WebhookSpec>()({ required: ['url'], optional: ['headers'], nullable: [] }),
  MatchingOutput: shape<MatchingOutput>()({ required: ['template'], optional: [], nullable: [] }),
  ReportOutput: shape<ReportOutput>()({ required: ['template'], optional: [], nullable: [] }),
  ResultDocument: shape<ResultDocument>()({ required: ['schemaVersion', 'title', 'summary', 'sections'], optional: [], nullable: [] }),
  Section: shape<Section>()({ required: ['section_title', 'section_content'], optional: [], nullable: [] }),
  CardBlock: shape<CardBlock>()({ required: ['type', 'title', 'content', 'icon'], optional: [], nullable: [] }),
  TextBlock: shape<TextBlock>()({ required: ['type', 'content'], optional: ['title'], nullable: [] }),
  GridBlock: shape<GridBlock>()({ required: ['type', 'columns', 'items'], optional: [], nullable: [] }),
  IllustrationBlock: shape<IllustrationBlock>()({ required: ['type', 'variant'], optional: [], nullable: [] }),
  MediaAnalysis: shape<MediaAnalysis>()({
    required: ['status', 'speakers', 'warnings', 'engineVersion', 'speakerHints', 'stage', 'progress'], optional: ['error'],
    nullable: ['engineVersion', 'speakerHints', 'stage'],
  }),
  Speaker: shape<Speaker>()({ required: ['index', 'entityId', 'speechSec', 'firstSpeechSec', 'label', 'enough'], optional: [], nullable: ['entityId', 'label'] }),
  SpeakerHints: shape<SpeakerHints>()({ required: [], optional: ['numSpeakers', 'minSpeakers', 'maxSpeakers'], nullable: [] }),
  HintNotMetWarning: shape<HintNotMetWarning>()({ required: ['code', 'asked', 'found', 'reason'], optional: [], nullable: [] }),
  SpeakerCountUncertainWarning: shape<SpeakerCountUncertainWarning>()({ required: ['code', 'found', 'maybe', 'reason'], optional: [], nullable: [] }),
  DiarizationSegment: shape<DiarizationSegment>()({ required: ['speaker', 'start', 'end'], optional: [], nullable: [] }),
  SpeakerMetrics: shape<SpeakerMetrics>()({ required: ['index', 'entityId', 'label', 'metrics'], optional: [], nullable: ['entityId', 'label'] }),
  NotMeasured: shape<NotMeasured>()({ required: ['measures', 'reason'], optional: [], nullable: [] }),
  MeasuredAppearance: shape<MeasuredAppearance>()({ required: ['mediaId', 'speakerIndex', 'metrics'], optional: [], nullable: [] }),
  EntityAppearance: shape<EntityAppearance>()({ required: ['mediaId', 'speakerIndex', 'speechSec'], optional: [], nullable: [] }),
  DeliveryAttempt: shape<DeliveryAttempt>()({
    required: ['attempt', 'at', 'statusCode', 'durationMs', 'error', 'outcome'], optional: [], nullable: ['statusCode', 'durationMs', 'error'],
  }),
  WorkspaceQuotaFigures: shape<WorkspaceQuotaFigures>()({ required: ['apiKeys', 'mediaBytes'], optional: [], nullable: [] }),
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

const MEMBER = ['EntityReference', 'MediaTarget'] as const;
const BLOCKS = ['CardBlock', 'TextBlock', 'GridBlock', 'IllustrationBlock'] as const;

/**
 * Where a shape (a response's, a request body's or a nested one, by type name) holds others: the
 * drift test follows these into the document's schema, and there every object a field holds,
 * each alternative of a union included, must be one of them.
 */
export const nestedFields: Record<string, Readonly<Record<string, readonly string[]>>> = {
  Job: nested<Job>()({ error: ['JobError'] }),
  MatchingJobCreateParams: nested<MatchingJobCreateParams>()({ target: MEMBER, group: MEMBER, webhook: ['WebhookSpec'] }),
  ReportJobCreateParams: nested<ReportJobCreateParams>()({ target: MEMBER, webhook: ['WebhookSpec'] }),
  MediaTarget: nested<MediaTarget>()({ selector: ['Selector'] }),
  Selector: nested<Selector>()({ timerange: ['TimeRange'] }),
  MatchingPayload: nested<MatchingPayload>()({ output: ['MatchingOutput'], target: ['ResolvedMember'], group: ['ResolvedMember'], json: ['ResultDocument'] }),
  ReportPayload: nested<ReportPayload>()({ output: ['ReportOutput'], target: ['ResolvedMember'], json: ['ResultDocument'] }),
  ResolvedMember: nested<ResolvedMember>()({ source: MEMBER }),
  ResultDocument: nested<ResultDocument>()({ sections: ['Section'] }),
  Section: nested<Section>()({ section_content: BLOCKS }),
  GridBlock: nested<GridBlock>()({ items: ['CardBlock'] }),
  Media: nested<Media>()({ analysis: ['MediaAnalysis'] }),
  UploadedMedia: nested<UploadedMedia>()({ analysis: ['MediaAnalysis'] }),
  MediaAnalysis: nested<MediaAnalysis>()({
    error: ['JobError'], speakers: ['Speaker'], warnings: ['HintNotMetWarning', 'SpeakerCountUncertainWarning'], speakerHints: ['SpeakerHints'],
  }),
  HintNotMetWarning: nested<HintNotMetWarning>()({ asked: ['SpeakerHints'] }),
  Diarization: nested<Diarization>()({ segments: ['DiarizationSegment'] }),
  MediaMetrics: nested<MediaMetrics>()({ speakers: ['SpeakerMetrics'], notMeasured: ['NotMeasured'] }),
  SpeakerMetrics: nested<SpeakerMetrics>()({ metrics: ['SpeakerMeasures'] }),
  EntityMetrics: nested<EntityMetrics>()({ metrics: ['SpeakerMeasures'], appearances: ['MeasuredAppearance'] }),
  MeasuredAppearance: nested<MeasuredAppearance>()({ metrics: ['SpeakerMeasures'] }),
  Entity: nested<Entity>()({ appearances: ['EntityAppearance'] }),
  WebhookDelivery: nested<WebhookDelivery>()({ attempts: ['DeliveryAttempt'] }),
  Workspace: nested<Workspace>()({ quotas: ['WorkspaceQuotaFigures'], usage: ['WorkspaceQuotaFigures'] }),
  Evidence: nested<Evidence>()({ scale: ['EvidenceScale'], target: ['EvidenceMember'], group: ['EvidenceMember'], pairs: ['EvidencePair'], dimensions: ['EvidenceDimension'] }),
  EvidenceMember: nested<EvidenceMember>()({ metrics: ['SpeakerMeasures'], appearances: ['EvidenceAppearance'] }),
  EvidencePair: nested<EvidencePair>()({ overall: ['EvidenceOverall'], components: ['EvidenceComponent'] }),
  EvidenceComponent: nested<EvidenceComponent>()({ cells: ['EntrainmentCell'], figures: ['EvidenceFigures'] }),
  SpeakerMeasures: nested<SpeakerMeasures>()({ language: ['LanguageMeasures'] }),
};

/** The values of enumerated fields (`Shape.field`), constants included, of every shape above and in fields.ts. */
export const enumFields: Record<string, readonly (string | number)[]> = {
  'JobReceipt.status': values<JobReceipt['status']>()(['queued', 'running']),
  'Job.type': values<Job['type']>()(['matching', 'report']),
  'Job.status': values<Job['status']>()(['queued', 'running', 'succeeded', 'failed']),
  // Typed open (`JobStage | string`) so that a stage added later is not a type error: its list is JobStage's.
  'Job.stage': values<JobStage>()(['queued', 'preparing_media', 'detecting_speech', 'identifying_speakers',
    'measuring_behavior', 'resolving_members', 'scoring', 'writing_result', 'done']),
  'MatchingJobCreateParams.context': values<NonNullable<MatchingJobCreateParams['context']>>()(['behavioral_compatibility']),
  'ReportJobCreateParams.context': values<NonNullable<ReportJobCreateParams['context']>>()(['behavioral_profile']),
  'EntityReference.type': values<EntityReference['type']>()(['entity_id']),
  'MediaTarget.type': values<MediaTarget['type']>()(['media_target']),
  'Selector.strategy': values<Selector['strategy']>()(['dominant', 'timerange', 'entity_id', 'magic_hint', 'speaker_index']),
  'Selector.on_miss': values<NonNullable<Selector['on_miss']>>()(['fallback_dominant', 'error']),
  'MatchingPayload.context': values<MatchingPayload['context']>()(['behavioral_compatibility']),
  'ReportPayload.context': values<ReportPayload['context']>()(['behavioral_profile']),
  'MatchingOutput.template': values<MatchingOutput['template']>()(['matching']),
  'ReportOutput.template': values<ReportOutput['template']>()(['report']),
  'ResultDocument.schemaVersion': values<ResultDocument['schemaVersion']>()([1]),
  'CardBlock.type': values<CardBlock['type']>()(['card']),
  'TextBlock.type': values<TextBlock['type']>()(['text']),
  'GridBlock.type': values<GridBlock['type']>()(['grid']),
  'GridBlock.columns': values<GridBlock['columns']>()([2, 3, 4]),
  'IllustrationBlock.type': values<IllustrationBlock['type']>()(['illustration']),
  'IllustrationBlock.variant': values<IllustrationBlock['variant']>()(['conversation', 'growth', 'connection', 'analysis']),
  'Media.kind': values<Media['kind']>()(['audio', 'video', 'transcript']),
  'UploadedMedia.kind': values<UploadedMedia['kind']>()(['audio', 'video', 'transcript']),
  'MediaAnalysis.status': values<MediaAnalysis['status']>()(['pending', 'running', 'ready', 'failed']),
  'MediaAnalysis.stage': values<MediaAnalysisStage>()(['detecting_speech', 'identifying_speakers', 'measuring_behavior']),
  'HintNotMetWarning.code': values<HintNotMetWarning['code']>()(['hint_not_met']),
  'SpeakerCountUncertainWarning.code': values<SpeakerCountUncertainWarning['code']>()(['speaker_count_uncertain']),
  'SpeakerCountUncertainWarning.maybe': values<SpeakerCountUncertainWarning['maybe']>()(['fewer', 'more', 'either']),
  'LanguageMeasures.lexicon': values<NonNullable<LanguageMeasures['lexicon']>>()(['en']),
  'CreditTransaction.kind': values<CreditTransaction['kind']>()(['grant', 'reserve', 'charge', 'release']),
  'WebhookDelivery.status': values<WebhookDelivery['status']>()(['pending', 'succeeded', 'failed']),
  'DeliveryAttempt.outcome': values<DeliveryAttempt['outcome']>()(['succeeded', 'failed', 'refused', 'gone', 'in_flight', 'interrupted']),
  'ApiKey.scope': values<ApiKey['scope']>()(['admin', 'standard']),
  'CreatedApiKey.scope': values<CreatedApiKey['scope']>()(['admin', 'standard']),
  'ApiKeyCreateParams.scope': values<NonNullable<ApiKeyCreateParams['scope']>>()(['admin', 'standard']),
  'Evidence.kind': values<Evidence['kind']>()(['matching', 'report']),
  'EntrainmentCell.feature': values<EntrainmentCell['feature']>()(['pitch', 'loudness', 'rate']),
  'EntrainmentCell.measure': values<EntrainmentCell['measure']>()(['proximity', 'convergence', 'synchrony']),
};
