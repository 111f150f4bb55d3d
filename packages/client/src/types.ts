// The API's resource shapes, as interface-spec.md and decisions.md define them. The OpenAPI drift
// test (test/openapi.test.ts) checks the field lists in `fields.ts` against the server's document,
// and `fields.ts` is checked against these types by the compiler, so none of them drifts alone.

export type Id = string;
/** ISO 8601 UTC with milliseconds. */
export type Timestamp = string;

export interface List<T> {
  data: T[];
  nextCursor: string | null;
}

export interface ListParams {
  /** 1 to 100, default 20: the page size, not a total. */
  limit?: number;
  cursor?: string;
}

export interface RequestOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  maxRetries?: number;
  /** For POSTs: replaces the key the SDK would generate. */
  idempotencyKey?: string;
  headers?: Record<string, string>;
}

// ---- matching request (interface-spec.md "Resources and their fields") ----

export type SelectorStrategy = 'dominant' | 'timerange' | 'entity_id' | 'magic_hint' | 'speaker_index';

export interface Selector {
  strategy: SelectorStrategy;
  on_miss?: 'fallback_dominant' | 'error';
  entity_id?: string | null;
  hint?: string | null;
  speaker_index?: number | null;
  timerange?: { start_seconds?: number | null; end_seconds?: number | null } | null;
}

export interface EntityReference {
  type: 'entity_id';
  entityId: string;
}

export interface MediaTarget {
  type: 'media_target';
  mediaId: string;
  selector: Selector;
}

export type Member = EntityReference | MediaTarget;

export interface WebhookSpec {
  url: string;
  headers?: Record<string, string>;
}

export interface MatchingJobCreateParams {
  target: Member;
  /** 1 to 20 members, compared with the target in this order. */
  group: readonly Member[];
  /** Defaults to `behavioral_compatibility`, the only value. */
  context?: 'behavioral_compatibility';
  label?: string;
  idempotencyKey?: string;
  webhook?: WebhookSpec;
}

export interface ReportJobCreateParams {
  target: Member;
  context?: 'behavioral_profile';
  label?: string;
  idempotencyKey?: string;
  webhook?: WebhookSpec;
}

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed';
export type JobStage =
  | 'queued' | 'preparing_media' | 'detecting_speech' | 'identifying_speakers' | 'measuring_behavior'
  | 'resolving_members' | 'scoring' | 'writing_result' | 'done';

export interface JobReceipt {
  jobId: Id;
  status: 'queued' | 'running';
  stage?: string;
  estimatedWaitSec?: number;
}

export interface JobError {
  code: string;
  message: string;
}

export interface Job {
  id: Id;
  type: 'matching' | 'report';
  status: JobStatus;
  stage: JobStage | string;
  progress: number;
  label?: string;
  createdAt: Timestamp;
  startedAt: Timestamp | null;
  finishedAt: Timestamp | null;
  estimatedWaitSec?: number;
  resultId: Id | null;
  error: JobError | null;
}

export interface JobListParams extends ListParams {
  status?: JobStatus;
  type?: 'matching' | 'report';
}

/** One server-sent event of a job's progress stream (decisions.md §6). */
export interface JobEvent {
  id: string | null;
  event: 'job.updated' | 'job.succeeded' | 'job.failed';
  job: Job;
}

// ---- results ----

export interface CardBlock { type: 'card'; title: string; content: string; icon: string }
export interface TextBlock { type: 'text'; content: string; title?: string }
export interface GridBlock { type: 'grid'; columns: 2 | 3 | 4; items: CardBlock[] }
export interface IllustrationBlock { type: 'illustration'; variant: 'conversation' | 'growth' | 'connection' | 'analysis' }
export type Block = CardBlock | TextBlock | GridBlock | IllustrationBlock;

export interface Section {
  section_title: string;
  section_content: Block | Block[] | Record<string, never>;
}

export interface ResultDocument {
  schemaVersion: 1;
  title: string;
  summary: string;
  sections: Section[];
}

export interface ResolvedMember {
  source: Member;
  entityId?: string;
  resolvedLabel?: string | null;
}

export interface MatchingPayload {
  id: Id;
  jobId?: Id;
  context: 'behavioral_compatibility';
  createdAt: Timestamp;
  label?: string;
  output: { template: 'matching' };
  target: ResolvedMember;
  group: ResolvedMember[];
  json?: ResultDocument | null;
  markdown?: string | null;
}

export interface ReportPayload {
  id: Id;
  jobId?: Id;
  context: 'behavioral_profile';
  createdAt: Timestamp;
  label?: string;
  output: { template: 'report' };
  target: ResolvedMember;
  json?: ResultDocument | null;
  markdown?: string | null;
}

// ---- media ----

export interface Speaker {
  index: number;
  entityId: Id | null;
  speechSec: number;
  firstSpeechSec: number;
  label: string | null;
  /** Enough speech to judge the voice (decisions §16); false: no person of its own, not matchable. */
  enough: boolean;
}

/**
 * What you know of how many people speak: `numSpeakers` exactly, or a range with `minSpeakers`
 * and/or `maxSpeakers` (whole numbers 1 to 20, min <= max, never numSpeakers with a range).
 */
export interface SpeakerHints {
  numSpeakers?: number;
  minSpeakers?: number;
  maxSpeakers?: number;
}

/**
 * Hints for a re-analysis. Naming any field replaces every stored hint with the ones given
 * (null: not set; `{ numSpeakers: null }` clears them); no hints keeps the stored ones.
 */
export interface ReanalyzeParams {
  numSpeakers?: number | null;
  minSpeakers?: number | null;
  maxSpeakers?: number | null;
}

export interface FileListParams extends ListParams {
  /** Only audio and video analysed (or failed) by an engine version other than the service's. */
  outdated?: boolean;
}

/**
 * What an analysis says of itself: a speaker-count hint it could not meet (what was asked, how
 * many were found, and why), or a count found without a hint that it is unsure of.
 */
export type AnalysisWarning =
  | { code: 'hint_not_met'; asked: SpeakerHints; found: number; reason: string }
  | { code: 'speaker_count_uncertain'; found: number; maybe: 'fewer' | 'more' | 'either'; reason: string };

export interface Media {
  id: Id;
  kind: 'audio' | 'video' | 'transcript';
  filename: string;
  contentType: string;
  sizeBytes: number;
  sha256: string;
  durationSec: number | null;
  label?: string;
  hasTranscript: boolean;
  analysis: {
    status: 'pending' | 'running' | 'ready' | 'failed';
    error?: JobError;
    speakers: Speaker[];
    /** What the analysis says of itself: `hint_not_met` when the speaker-count hint could not be met (decisions §15), `speaker_count_uncertain` when a count found without a hint is unsure. */
    warnings: AnalysisWarning[];
    /** The engine version that made (or failed) the current analysis; null while one is owed. */
    engineVersion: string | null;
    /** The speaker-count hints every analysis of this media uses. */
    speakerHints: SpeakerHints | null;
    /** The step a running analysis is in; null unless `status` is `running`. */
    stage: MediaAnalysisStage | null;
    /** Share of the analysis done, 0 to 1 (each stage a third); 1 when ready. */
    progress: number;
  };
  createdAt: Timestamp;
}

export type MediaAnalysisStage = 'detecting_speech' | 'identifying_speakers' | 'measuring_behavior';

/**
 * The answer to `files.upload`: the media, and `duplicate: true` (HTTP 200) when the workspace
 * already had media with these bytes (same SHA-256): then it is that media, nothing was stored,
 * analysed or charged, and the label and hints sent were not applied (decisions §18).
 */
export interface UploadedMedia extends Media {
  duplicate: boolean;
}

/** One event of a media analysis stream (`files.events`, `files.stream`): the media's state. */
export interface MediaEvent {
  /** The event id: send it back as `lastEventId` to resume after it. */
  id: string | null;
  event: 'media.updated' | 'media.ready' | 'media.failed';
  media: Media;
}

/** `POST /v1/files/:id/content-links`. */
export interface ContentLinkParams {
  /** How long the link works, 60 to 3600 seconds; default 900. */
  expiresInSec?: number;
}

/** A short-lived link that streams one media's bytes without the API key (for `<audio src>`). */
export interface ContentLink {
  /** The content route with the link's token; the SDK answers it absolute (on its base URL). */
  url: string;
  expiresAt: Timestamp;
}

/** `files.content`: a byte range of the file (`end` inclusive; left out: to the end). */
export interface ContentParams {
  range?: { start: number; end?: number };
}

export interface Diarization {
  mediaId: Id;
  durationSec: number | null;
  segments: { speaker: number; start: number; end: number }[];
}

/** `GET /v1/files/:id/diarization?format=`: json (default), rttm, vtt or srt. */
export interface DiarizationParams {
  format?: 'json' | 'rttm' | 'vtt' | 'srt';
}

// ---- measurements (GET /v1/files/:id/metrics, /v1/entities/:id/metrics; docs/analysis.md) ----

export interface LanguageMeasures {
  words: number;
  /** Words per minute of speech. */
  wordsPerMinute: number | null;
  /** Per 100 words. */
  questionRate: number;
  /** 'en': the word lists were applied; null: the transcript is not in English, the lexical measures below are null (not measured, English only). */
  lexicon?: 'en' | null;
  hedgeRate: number | null;
  firstPersonSingularRate: number | null;
  firstPersonPluralRate: number | null;
  /** VADER compound, -1 to 1. */
  sentiment: number | null;
  /** Percent of words in each function-word category. */
  functionWords: Record<string, number> | null;
}

/** Seconds, shares 0–1, pitch in semitones above 27.5 Hz, loudness in dBFS; null when not measured. */
export interface SpeakerMeasures {
  speechSec: number;
  talkShare: number;
  turns: number;
  medianTurnSec: number | null;
  longestTurnSec: number | null;
  pausesPerMin: number | null;
  medianPauseSec: number | null;
  speakingRateSylPerSec: number | null;
  articulationRateSylPerSec: number | null;
  pitchMedianSt: number | null;
  pitchRangeSt: number | null;
  pitchVariabilitySt: number | null;
  loudnessMeanDb: number | null;
  loudnessVariabilityDb: number | null;
  medianGapBeforeTurnSec: number | null;
  interruptionsMade: number | null;
  interruptionsReceived: number | null;
  backchannels: number | null;
  overlapSec: number | null;
  language: LanguageMeasures | null;
}

export interface MediaMetrics {
  mediaId: Id;
  speakers: { index: number; entityId: Id | null; label: string | null; metrics: SpeakerMeasures }[];
  /** Measures this media could not make, and why: "no audio" for a transcript on its own (decisions §19). Absent when every measure was attempted. */
  notMeasured?: { measures: string[]; reason: string };
}

export interface EntityMetrics {
  entityId: Id;
  label: string | null;
  /** The profile over the appearances in analysed media; null when they hold no speech. */
  metrics: SpeakerMeasures | null;
  appearances: { mediaId: Id; speakerIndex: number; metrics: SpeakerMeasures }[];
}

// ---- entities ----

export interface Entity {
  id: Id;
  label: string | null;
  /** What people read: the label, else "Speaker 2 in interview.wav" (its first appearance). */
  name: string;
  tags: string[];
  speechSec: number;
  /** Enough speech to judge the voice (decisions §16). */
  enough: boolean;
  appearances: { mediaId: Id; speakerIndex: number; speechSec: number }[];
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface EntityListParams extends ListParams {
  tag?: string;
  q?: string;
  /** `empty`: also entities with no appearance left (not listed by default). */
  include?: 'empty';
}

// ---- credits, feedback ----

export interface CreditBalance {
  balance: number;
  reserved: number;
  available: number;
  updatedAt: Timestamp;
}

export interface CreditTransaction {
  id: Id;
  kind: 'grant' | 'reserve' | 'charge' | 'release';
  amount: number;
  balanceAfter: number;
  jobId?: Id;
  mediaId?: Id;
  createdAt: Timestamp;
}

export interface FeedbackCreateParams {
  resultId: Id;
  rating: 1 | 2 | 3 | 4 | 5;
  comment?: string;
}

export interface Feedback {
  id: Id;
  resultId: Id;
  rating: number;
  comment?: string;
  createdAt: Timestamp;
}

// ---- webhook deliveries ----

export interface DeliveryAttempt {
  attempt: number;
  at: Timestamp;
  statusCode: number | null;
  durationMs: number | null;
  error: string | null;
  outcome: 'succeeded' | 'failed' | 'refused' | 'gone' | 'in_flight' | 'interrupted';
}

export interface WebhookDelivery {
  id: Id;
  eventId: Id;
  eventType: string;
  jobId: Id;
  url: string;
  status: 'pending' | 'succeeded' | 'failed';
  attemptCount: number;
  nextAttemptAt: Timestamp | null;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  /** Every attempt, on the single-delivery answers. */
  attempts?: DeliveryAttempt[];
}

export interface DeliveryListParams extends ListParams {
  jobId?: string;
  status?: 'pending' | 'succeeded' | 'failed';
}

// ---- entities: request bodies ----

export interface EntityUpdateParams {
  /** A name; null clears it. */
  label: string | null;
}

export interface EntityTagParams {
  tags: string[];
}

export interface EntityMergeParams {
  into: Id;
  from: Id[];
}

// ---- workspace ----

/** Active API keys and bytes of stored media: the most a workspace may hold, or what it holds. */
export interface WorkspaceQuotaFigures {
  apiKeys: number;
  mediaBytes: number;
}

export interface Workspace {
  id: Id;
  name: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  /** The quotas in force (beyond them, 409 `QUOTA_EXCEEDED`). */
  quotas: WorkspaceQuotaFigures;
  /** What the workspace holds now, counted against `quotas`. */
  usage: WorkspaceQuotaFigures;
}

export interface ApiKey {
  id: Id;
  scope: 'admin' | 'standard';
  name: string | null;
  /** The key's last characters, to recognise it; the key itself is never shown again. */
  hint: string;
  createdAt: Timestamp;
  revokedAt: Timestamp | null;
}

/** The answer to creating a key: the only time the key itself is shown. */
export interface CreatedApiKey extends ApiKey {
  apiKey: string;
}

export interface ApiKeyCreateParams {
  scope?: 'admin' | 'standard';
  name?: string;
}

export interface SigningSecret {
  signingSecret: string;
  /** While a rotated secret is in its 24 h grace period, it and its end. */
  previousSigningSecret: string | null;
  previousExpiresAt: Timestamp | null;
}
