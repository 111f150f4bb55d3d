// What a result's evidence and HTML routes answer (GET /v1/matching/:id/evidence and /html, the
// same under /v1/reports), defined once: the schemas type the code, check real answers in tests
// (results.schemas.test.ts, which also has the compiler hold the engine's MatchingEvidence type
// to it) and describe the routes in the OpenAPI document. The evidence is what @rapport/analysis
// built the result from (documents/evidence.ts), stored as it was then.
import { Type, type Static } from 'typebox';
import { ENTRAINMENT_FEATURES, ENTRAINMENT_MEASURES } from '@rapport/analysis';
import { Nullable, OneOf, Strict } from '../http/schema-helpers.ts';
import { SpeakerMeasures } from '../metrics/metrics.schemas.ts';

const share = (description: string) => Type.Number({ minimum: 0, maximum: 1, description });

const AppearanceEvidence = Strict({
  mediaId: Type.String(),
  speakerIndex: Type.Integer({ minimum: 0 }),
  speechSec: Nullable(Type.Number({ minimum: 0, description: 'seconds; null when the media is no longer there' })),
  transcribed: Type.Boolean({ description: 'the media has a transcript' }),
  countUncertain: Type.Boolean({ description: 'the recording\'s number of speakers came from the voices alone (its speaker_count_uncertain warning)' }),
  separation: Nullable(Type.Number({ description: 'how far the speaker\'s voice is from the others\' (null when not recorded)' })),
  trust: share('how sure the analysis is of this speaker'),
  noAudio: Type.Boolean({ description: 'a transcript on its own, measured from its cues, without a voice (decisions §19)' }),
});

const MemberEvidence = Strict({
  ref: Type.String({ description: '"target" or "group[i]"' }),
  name: Type.String(),
  shortName: Type.String({ description: 'the name used after the first mention' }),
  entityId: Nullable(Type.String()),
  metrics: SpeakerMeasures,
  appearances: Type.Array(AppearanceEvidence),
  mediaCount: Type.Integer({ minimum: 0 }),
  transcribedMediaCount: Type.Integer({ minimum: 0 }),
  speechMin: Type.Number({ minimum: 0, description: 'minutes of speech' }),
  interruptionsPerMin: Nullable(Type.Number({ description: 'interruptions made per minute of own speech' })),
  pitchMedianHz: Nullable(Type.Number({ description: 'hertz' })),
  profileConfidence: share('speech over the full-confidence amount, capped at 1, times profileTrust'),
  profileTrust: share('how sure the analysis is of the speakers the profile is gathered from'),
});

const EntrainmentCell = Strict({
  feature: OneOf(ENTRAINMENT_FEATURES),
  measure: OneOf(ENTRAINMENT_MEASURES),
  observed: Nullable(Type.Number({ description: 'proximity: mean absolute difference (feature unit); convergence and synchrony: Pearson r' })),
  baseline: Nullable(Type.Number({ description: 'the same statistic, mean over the shuffles' })),
  score: Nullable(Type.Number({ minimum: 0, maximum: 100, description: 'share of shuffles beaten; null with too few exchanges' })),
  exchanges: Type.Integer({ minimum: 0 }),
});

const ComponentScore = Strict({
  key: Type.String({ description: 'the dimension (responsiveness, interruptions, floorBalance, …)' }),
  name: Type.String(),
  score: Nullable(Type.Number({ minimum: 0, maximum: 100, description: 'null when the data does not allow it (then confidence is 0)' })),
  confidence: share('how much the score rests on'),
  weight: Type.Number({ minimum: 0 }),
  inputs: Type.Record(Type.String(), Nullable(Type.Number()), { description: 'the figures the score is computed from' }),
  cells: Type.Optional(Type.Array(EntrainmentCell, { description: 'entrainment only: the feature × measure cells' })),
  figures: Strict({ measured: Type.Integer({ minimum: 0 }), possible: Type.Integer({ minimum: 0 }) }, { description: 'how many of the figures the score combines were measured' }),
});

const PairEvidence = Strict({
  member: Type.String({ description: 'the group member\'s ref, "group[i]"' }),
  name: Type.String(),
  met: Type.Boolean({ description: 'target and member speak in a recording together' }),
  sharedMediaIds: Type.Array(Type.String()),
  sharedMediaCount: Type.Integer({ minimum: 0 }),
  overall: Strict({ score: Nullable(Type.Number({ minimum: 0, maximum: 100 })), confidence: share('confidence of the overall score') }),
  trust: share('the speaker trust every component\'s confidence was multiplied by'),
  components: Type.Array(ComponentScore),
});

const DimensionEvidence = Strict({
  key: Type.String(),
  name: Type.String(),
  score: Type.Number({ minimum: 0, maximum: 100, description: 'mean over the pairs where it was measured' }),
  pairs: Type.Integer({ minimum: 0 }),
  singleFigure: Type.Boolean({ description: 'combines several figures but rests on one measured figure in every pair' }),
});

export const ResultEvidence = Strict({
  kind: OneOf(['matching', 'report'] as const),
  scale: Strict({ min: Type.Number(), max: Type.Number() }, { description: 'every score is on this scale' }),
  method: Type.Record(Type.String(), Type.Number(), { description: 'the constants the documents quote (reference values, thresholds)' }),
  target: MemberEvidence,
  group: Type.Array(MemberEvidence, { description: 'empty for a report' }),
  groupSize: Type.Integer({ minimum: 0 }),
  pairs: Type.Array(PairEvidence, { description: 'one per group member; empty for a report' }),
  groupOverall: Nullable(Type.Number({ minimum: 0, maximum: 100, description: 'confidence-weighted mean of the pairs\' overall scores; null for a report or when none has one' })),
  dimensions: Type.Array(DimensionEvidence),
}, { description: 'The measurements behind the result: each member\'s metrics and appearances, each target–member pair\'s component scores with their inputs and confidence' });
export type ResultEvidence = Static<typeof ResultEvidence>;

export const ResultHtml = Type.String({
  contentMediaType: 'text/html',
  description: 'One standalone HTML file, UTF-8: the document with inline CSS and SVG figures, no script, nothing fetched (Content-Security-Policy says so)',
});
