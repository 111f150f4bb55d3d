// The media resource and diarization of decisions §7, defined once for the types and the
// OpenAPI document. Uploads are multipart, so their fields are checked in upload-stream.ts and
// files.service.ts rather than by a body schema.
import { Type, type Static } from 'typebox';
import { ListQuery, LabelText, Nullable, OneOf, Strict } from '../http/schema-helpers.ts';

export const MediaSpeaker = Strict({
  index: Type.Integer({ minimum: 0, description: 'speakers are numbered by first speech' }),
  entityId: Nullable(Type.String({ description: 'null for a transcript on its own (no voice to link)' })),
  speechSec: Type.Number({ minimum: 0, description: 'seconds' }),
  firstSpeechSec: Type.Number({ minimum: 0, description: 'seconds' }),
  label: Nullable(Type.String()),
  enough: Type.Boolean({ description: 'whether the speaker has enough speech to be judged (decisions §16): false below MIN_SPEECH_SEC_TO_JUDGE seconds; such a speaker has no entity of its own and a job that resolves to it fails with not_enough_speech' }),
});
export type MediaSpeaker = Static<typeof MediaSpeaker>;

/** Speaker-count hints: the bounds of one count, shared by the upload form, the re-analysis body and the resource. */
export const MIN_SPEAKERS_HINT = 1;
export const MAX_SPEAKERS_HINT = 20;
const SpeakerCount = (description: string) => Type.Integer({ minimum: MIN_SPEAKERS_HINT, maximum: MAX_SPEAKERS_HINT, description });
const HINT_DESCRIPTIONS = {
  numSpeakers: 'exactly this many speakers; not with minSpeakers or maxSpeakers',
  minSpeakers: 'at least this many speakers (at most maxSpeakers)',
  maxSpeakers: 'at most this many speakers',
} as const;
export const HINT_FIELDS = ['numSpeakers', 'minSpeakers', 'maxSpeakers'] as const;
export type HintField = (typeof HINT_FIELDS)[number];

/** The hints a media is analysed with (what the user said; null in the resource when none). */
export const SpeakerHints = Strict({
  numSpeakers: Type.Optional(SpeakerCount(HINT_DESCRIPTIONS.numSpeakers)),
  minSpeakers: Type.Optional(SpeakerCount(HINT_DESCRIPTIONS.minSpeakers)),
  maxSpeakers: Type.Optional(SpeakerCount(HINT_DESCRIPTIONS.maxSpeakers)),
}, { description: 'the speaker count the user gave (numSpeakers, or minSpeakers and/or maxSpeakers)' });
export type SpeakerHints = Static<typeof SpeakerHints>;

/**
 * Body of POST /v1/files/:id/reanalyze (optional). A body that names any hint field replaces the
 * stored hints with the ones it gives (null: not set, so `{"numSpeakers": null}` clears them); a
 * body without hint fields keeps the stored hints.
 */
export const ReanalyzeBody = Strict({
  numSpeakers: Type.Optional(Nullable(SpeakerCount(HINT_DESCRIPTIONS.numSpeakers))),
  minSpeakers: Type.Optional(Nullable(SpeakerCount(HINT_DESCRIPTIONS.minSpeakers))),
  maxSpeakers: Type.Optional(Nullable(SpeakerCount(HINT_DESCRIPTIONS.maxSpeakers))),
});
export type ReanalyzeBody = Static<typeof ReanalyzeBody>;

/** The multipart form of POST /v1/files (fields arrive as text; hints are decimal integers). */
export const UploadForm = Type.Object({
  file: Type.String({ contentMediaType: 'application/octet-stream', description: 'the recording or transcript, exactly one part' }),
  label: Type.Optional(LabelText()),
  mediaId: Type.Optional(Type.String({
    minLength: 1,
    maxLength: 256,
    description: "attach the file to this existing media of the workspace instead of making new media: a transcript to audio or video media (analysed again with it), or audio or video to a transcript uploaded on its own (the media becomes that audio or video, analysed from it, the transcript's text kept; decisions §19)",
  })),
  numSpeakers: Type.Optional(SpeakerCount(HINT_DESCRIPTIONS.numSpeakers)),
  minSpeakers: Type.Optional(SpeakerCount(HINT_DESCRIPTIONS.minSpeakers)),
  maxSpeakers: Type.Optional(SpeakerCount(HINT_DESCRIPTIONS.maxSpeakers)),
});

/** The steps of a media analysis, in order (the engine reports each one's progress). */
export const ANALYSIS_STAGES = ['detecting_speech', 'identifying_speakers', 'measuring_behavior'] as const;
export type AnalysisStageName = (typeof ANALYSIS_STAGES)[number];

/**
 * What an analysis says of itself: a speaker-count hint it could not meet (decisions §15), or a
 * count found without a hint that it is unsure of (issue 31: give a hint).
 */
export const AnalysisWarning = Type.Union([
  Strict({
    code: Type.Literal('hint_not_met'),
    asked: SpeakerHints,
    found: Type.Integer({ minimum: 0, description: 'speakers the analysis found' }),
    reason: Type.String({ description: 'why, in words a person reads' }),
  }),
  Strict({
    code: Type.Literal('speaker_count_uncertain'),
    found: Type.Integer({ minimum: 0, description: 'speakers the analysis found' }),
    maybe: Type.Union([Type.Literal('fewer'), Type.Literal('more'), Type.Literal('either')], { description: 'whether the count may be too high (fewer), too low (more), or either' }),
    reason: Type.String({ description: 'why, in words a person reads' }),
  }),
]);
export type AnalysisWarning = Static<typeof AnalysisWarning>;

export const MediaAnalysisState = Strict({
  status: Type.Union([Type.Literal('pending'), Type.Literal('running'), Type.Literal('ready'), Type.Literal('failed')]),
  error: Type.Optional(Strict({ code: Type.String(), message: Type.String() })),
  speakers: Type.Array(MediaSpeaker),
  warnings: Type.Array(AnalysisWarning, { description: 'what the analysis says of itself: hint_not_met when the speaker-count hint could not be met (decisions §15), speaker_count_uncertain when a count found without a hint is unsure; empty when none' }),
  engineVersion: Nullable(Type.String({ description: 'the engine version that made the current analysis (or failed it); null before it ends, and for analyses made before versions were recorded' })),
  speakerHints: Nullable(SpeakerHints),
  stage: Nullable(Type.Union([Type.Literal(ANALYSIS_STAGES[0]), Type.Literal(ANALYSIS_STAGES[1]), Type.Literal(ANALYSIS_STAGES[2])], { description: 'the step a running analysis is in; null unless status is running' })),
  progress: Type.Number({ minimum: 0, maximum: 1, description: 'share of the analysis done: each stage is a third; 1 when ready' }),
});

export const Media = Strict({
  id: Type.String(),
  kind: Type.Union([Type.Literal('audio'), Type.Literal('video'), Type.Literal('transcript')]),
  filename: Type.String(),
  contentType: Type.String({ description: 'detected from the content, not the client' }),
  sizeBytes: Type.Integer({ minimum: 1 }),
  sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  durationSec: Nullable(Type.Number({ minimum: 0, description: 'seconds' })),
  label: Type.Optional(Type.String()),
  hasTranscript: Type.Boolean(),
  analysis: MediaAnalysisState,
  createdAt: Type.String(),
});
export type Media = Static<typeof Media>;

/** The answer to an upload: the media, and whether the workspace already had these bytes (decisions §18). */
export const UploadedMedia = Strict({
  ...Media.properties,
  duplicate: Type.Boolean({ description: 'true (status 200) when the workspace already had media with these bytes (same SHA-256): this is that media, and nothing was stored, analysed or charged; false (status 201) for new media or a file attached with mediaId' }),
});
export type UploadedMedia = Static<typeof UploadedMedia>;

export const Diarization = Strict({
  mediaId: Type.String(),
  durationSec: Nullable(Type.Number({ minimum: 0, description: 'seconds' })),
  segments: Type.Array(Strict({
    speaker: Type.Integer({ minimum: 0 }),
    start: Type.Number({ minimum: 0, description: 'seconds' }),
    end: Type.Number({ minimum: 0, description: 'seconds' }),
  })),
});
export type Diarization = Static<typeof Diarization>;

export const DIARIZATION_FORMATS = ['json', 'rttm', 'vtt', 'srt'] as const;
export type DiarizationFormat = (typeof DIARIZATION_FORMATS)[number];

export const DiarizationQuery = Strict({
  format: Type.Optional(OneOf(DIARIZATION_FORMATS, { default: 'json', description: 'json (default), rttm (text/plain), vtt (text/vtt) or srt (application/x-subrip)' })),
});
export type DiarizationQuery = Static<typeof DiarizationQuery>;

export const MediaListQuery = Strict({
  ...ListQuery.properties,
  outdated: Type.Optional(Type.Boolean({ description: 'true: only audio and video whose analysis (ready or failed) was made by an engine other than the current one' })),
});
export type MediaListQuery = Static<typeof MediaListQuery>;

/** Body of POST /v1/files/:id/content-links (optional). */
export const CONTENT_LINK_DEFAULT_SEC = 900;
export const ContentLinkBody = Strict({
  expiresInSec: Type.Optional(Type.Integer({ minimum: 60, maximum: 3600, default: CONTENT_LINK_DEFAULT_SEC, description: 'how long the link works, in seconds (default 900)' })),
});
export type ContentLinkBody = Static<typeof ContentLinkBody>;

export const ContentLink = Strict({
  url: Type.String({ description: 'path and query of the content route with the link\'s token (resolve it against the API\'s address); no API key needed, one media only' }),
  expiresAt: Type.String({ description: 'when the link stops working (ISO 8601)' }),
});
export type ContentLink = Static<typeof ContentLink>;

export const ContentQuery = Strict({
  token: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'a content link\'s token (POST /v1/files/:id/content-links), in place of the Service-Api-Key header' })),
});
