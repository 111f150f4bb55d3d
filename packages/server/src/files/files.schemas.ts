// The media resource and diarization of decisions §7, defined once for the types and the
// OpenAPI document. Uploads are multipart, so their fields are checked in upload-stream.ts and
// files.service.ts rather than by a body schema.
import { Type, type Static } from 'typebox';
import { ListQuery, Nullable, Strict } from '../http/schema-helpers.ts';

export const MediaSpeaker = Strict({
  index: Type.Integer({ minimum: 0, description: 'speakers are numbered by first speech' }),
  entityId: Nullable(Type.String({ description: 'null for a transcript on its own (no voice to link)' })),
  speechSec: Type.Number({ minimum: 0, description: 'seconds' }),
  firstSpeechSec: Type.Number({ minimum: 0, description: 'seconds' }),
  label: Nullable(Type.String()),
});
export type MediaSpeaker = Static<typeof MediaSpeaker>;

export const MediaAnalysisState = Strict({
  status: Type.Union([Type.Literal('pending'), Type.Literal('running'), Type.Literal('ready'), Type.Literal('failed')]),
  error: Type.Optional(Strict({ code: Type.String(), message: Type.String() })),
  speakers: Type.Array(MediaSpeaker),
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
  format: Type.Optional(Type.Union(DIARIZATION_FORMATS.map((f) => Type.Literal(f)), { default: 'json', description: 'json (default), rttm (text/plain), vtt (text/vtt) or srt (application/x-subrip)' })),
});
export type DiarizationQuery = Static<typeof DiarizationQuery>;

export const MediaListQuery = ListQuery;
export type MediaListQuery = Static<typeof MediaListQuery>;
