// The evidence of a result (decisions §6): the members' measurements, and for each target–member
// pair the component scores with their inputs and confidence. Documents are written from this
// object only, so every figure they quote can be found in it.
import type { LanguageMetrics, MediaAnalysis } from '../types.ts';
import type { PairConversation } from '../behavior/pair-metrics.ts';
import { PERMUTATIONS } from '../behavior/entrainment.ts';
import { SCORING, scorePair } from '../matching/scoring.ts';
import { pairTrust, profileTrust, speakerTrustParts } from '../matching/speaker-trust.ts';
import { overlapMeasured } from '../behavior/speaker-metrics.ts';
import { semitonesToHz } from './format.ts';
import type { DimensionEvidence, MatchingEvidence, MemberEvidence, MemberInput, PairEvidence } from './types.ts';
import { NO_AUDIO_REASON } from '../transcript-analysis.ts';

/** Reference values and thresholds that documents quote (growth advice, method). */
export const DOCUMENT_CONSTANTS = {
  growthThreshold: 60,
  longGapSec: 1,
  dominantShare: 0.6,
  quietShare: 0.25,
  frequentInterruptionsPerMin: 1,
  frequentHedgesPer100Words: 3,
  typicalGapSec: SCORING.typicalGapSec,
  permutations: PERMUTATIONS,
  unrelatedEntrainment: 50,
  pitchReferenceHz: 27.5,
  /** Below this speaker trust, documents say the speakers of a recording may be mixed (decisions §20). */
  lowTrust: 0.8,
} as const;

export function memberEvidence(m: MemberInput, media: Record<string, MediaAnalysis>): MemberEvidence {
  const appearances = m.appearances.map((a) => {
    const analysis = media[a.mediaId];
    const speaker = analysis?.speakers[a.speakerIndex];
    const parts = analysis ? speakerTrustParts(analysis, a.speakerIndex) : null;
    // A transcript on its own (decisions §19): its figures come from the cues, none from a voice.
    const noAudio = analysis?.method.notMeasured?.reason === NO_AUDIO_REASON;
    return {
      mediaId: a.mediaId, speakerIndex: a.speakerIndex, speechSec: speaker?.speechSec ?? null, transcribed: !!analysis?.transcript,
      countUncertain: parts?.countUncertain ?? false, separation: parts?.separation ?? null, trust: parts?.trust ?? 0, noAudio,
    };
  });
  const known = m.appearances.flatMap((a) => (media[a.mediaId] ? [{ analysis: media[a.mediaId]!, speakerIndex: a.speakerIndex }] : []));
  const trust = profileTrust(known);
  const mediaIds = new Set(appearances.map((a) => a.mediaId));
  const transcribed = new Set(appearances.filter((a) => a.transcribed).map((a) => a.mediaId));
  return {
    ref: m.ref,
    name: m.name,
    shortName: m.shortName ?? m.name,
    entityId: m.entityId,
    metrics: m.metrics,
    appearances,
    mediaCount: mediaIds.size,
    transcribedMediaCount: transcribed.size,
    speechMin: m.metrics.speechSec / 60,
    interruptionsPerMin: m.metrics.speechSec >= 1 && m.metrics.interruptionsMade !== null ? m.metrics.interruptionsMade / (m.metrics.speechSec / 60) : null,
    pitchMedianHz: semitonesToHz(m.metrics.pitchMedianSt, DOCUMENT_CONSTANTS.pitchReferenceHz),
    // The profile rests on its speakers as much as on its speech (decisions §20).
    profileConfidence: Math.min(1, m.metrics.speechSec / SCORING.fullConfidenceSpeechSec) * trust,
    profileTrust: trust,
  };
}

/** Media where both speak, as different speakers (the same speaker twice is one person, not a meeting). */
function sharedConversations(target: MemberInput, member: MemberInput, media: Record<string, MediaAnalysis>) {
  const conversations: PairConversation[] = [];
  const speakers: { analysis: MediaAnalysis; a: number; b: number }[] = [];
  const languageTarget: (LanguageMetrics | null)[] = [];
  const languageMember: (LanguageMetrics | null)[] = [];
  const seen = new Set<string>();
  for (const a of target.appearances) {
    const b = member.appearances.find((x) => x.mediaId === a.mediaId && x.speakerIndex !== a.speakerIndex);
    const analysis = media[a.mediaId];
    if (!b || !analysis || seen.has(a.mediaId)) continue;
    seen.add(a.mediaId);
    speakers.push({ analysis, a: a.speakerIndex, b: b.speakerIndex });
    conversations.push({ id: a.mediaId, durationSec: analysis.durationSec, segments: analysis.segments, turns: analysis.turns, overlapMeasured: overlapMeasured(analysis), a: a.speakerIndex, b: b.speakerIndex });
    languageTarget.push(analysis.speakers[a.speakerIndex]?.metrics.language ?? null);
    languageMember.push(analysis.speakers[b.speakerIndex]?.metrics.language ?? null);
  }
  return { conversations, languageTarget, languageMember, trust: pairTrust(speakers) };
}

export function pairEvidence(target: MemberInput, member: MemberInput, media: Record<string, MediaAnalysis>): PairEvidence {
  const shared = sharedConversations(target, member, media);
  // Never met: similarity and complementarity compare the two profiles, each as sure as its speakers.
  const profiles = (m: MemberInput) => profileTrust(m.appearances.flatMap((a) => (media[a.mediaId] ? [{ analysis: media[a.mediaId]!, speakerIndex: a.speakerIndex }] : [])));
  const trust = shared.conversations.length > 0 ? shared.trust : Math.min(profiles(target), profiles(member));
  const result = scorePair({ target: target.metrics, member: member.metrics, ...shared, trust });
  return {
    member: member.ref,
    name: member.name,
    met: result.met,
    sharedMediaIds: result.sharedMediaIds,
    sharedMediaCount: result.sharedMediaIds.length,
    overall: result.overall,
    trust: result.trust,
    components: result.components,
  };
}

function dimensions(pairs: readonly PairEvidence[]): DimensionEvidence[] {
  const byKey = new Map<string, { name: string; sum: number; n: number; most: number; possible: number }>();
  for (const p of pairs) {
    for (const c of p.components) {
      if (c.score === null) continue;
      const d = byKey.get(c.key) ?? { name: c.name, sum: 0, n: 0, most: 0, possible: c.figures.possible };
      d.sum += c.score;
      d.n += 1;
      d.most = Math.max(d.most, c.figures.measured);
      byKey.set(c.key, d);
    }
  }
  // A composite measured from one of its figures in every pair rests on that figure alone.
  return [...byKey.entries()].map(([key, d]) => ({ key, name: d.name, score: d.sum / d.n, pairs: d.n, singleFigure: d.possible > 1 && d.most <= 1 }));
}

export function buildEvidence(
  kind: 'matching' | 'report',
  target: MemberInput,
  group: readonly MemberInput[],
  media: Record<string, MediaAnalysis>,
): MatchingEvidence {
  const pairs = group.map((m) => pairEvidence(target, m, media));
  // Confidence-weighted, so that a pair scored from little speech moves the group figure little.
  let num = 0;
  let den = 0;
  for (const p of pairs) {
    if (p.overall.score === null || p.overall.confidence <= 0) continue;
    num += p.overall.score * p.overall.confidence;
    den += p.overall.confidence;
  }
  return {
    kind,
    scale: { min: 0, max: 100 },
    method: { ...DOCUMENT_CONSTANTS },
    target: memberEvidence(target, media),
    group: group.map((m) => memberEvidence(m, media)),
    groupSize: group.length,
    pairs,
    groupOverall: den > 0 ? num / den : null,
    dimensions: dimensions(pairs),
  };
}
