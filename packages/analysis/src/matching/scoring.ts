// Target × member compatibility: component scores 0–100, each with the inputs it was computed
// from and a confidence 0–1 that grows with the speech it rests on, times how sure the analysis
// is of the two speakers (decisions §20, speaker-trust.ts), and an overall score that is their
// weighted mean, each weight multiplied by the component's confidence. docs/analysis.md
// states every formula; the constants below are the ones it quotes.
import type { LanguageMetrics, SpeakerMetrics } from '../types.ts';
import { computeEntrainment } from '../behavior/entrainment.ts';
import type { EntrainmentCell } from '../behavior/entrainment.ts';
import { computePairInteraction } from '../behavior/pair-metrics.ts';
import type { PairConversation } from '../behavior/pair-metrics.ts';
import { aggregateLanguage } from '../behavior/speaker-metrics.ts';
import { clamp, mean } from '../behavior/stats.ts';
import { lsmOf } from '../language/lsm.ts';

export type ComponentKey =
  | 'responsiveness'
  | 'interruptions'
  | 'floorBalance'
  | 'entrainment'
  | 'languageStyle'
  | 'similarity'
  | 'complementarity';

export interface ComponentScore {
  key: ComponentKey;
  name: string;
  /** 0–100, or null when the data does not allow it (then its confidence is 0). */
  score: number | null;
  confidence: number;
  weight: number;
  inputs: Record<string, number | null>;
  /** Entrainment only: the nine feature × measure cells. */
  cells?: EntrainmentCell[];
  /**
   * The figures the score combines (a mean of parts): how many were measured, of how many it can
   * have. A composite resting on one measured figure says so in documents and is never headlined
   * as the strongest or weakest dimension (decisions §20).
   */
  figures: { measured: number; possible: number };
}

export interface PairScore {
  met: boolean;
  sharedMediaIds: string[];
  components: ComponentScore[];
  overall: { score: number | null; confidence: number };
  /** The speaker trust every component's confidence was multiplied by (1 when none was given). */
  trust: number;
}

/** Constants quoted by docs/analysis.md and the method section of documents. */
export const SCORING = {
  typicalGapSec: 0.2,
  gapToleranceSec: 2,
  interruptionsPerMinCeiling: 2,
  fullConfidenceTransitions: 20,
  fullConfidenceSpeechSec: 300,
  fullConfidenceExchanges: 30,
  fullConfidenceWords: 250,
  weightsMet: { responsiveness: 0.2, interruptions: 0.15, floorBalance: 0.15, entrainment: 0.3, languageStyle: 0.2 },
  weightsUnmet: { similarity: 0.5, complementarity: 0.5 },
} as const;

/** Typical between-speaker spread of each profile feature (the distance at which similarity is 1/e). */
export const SIMILARITY_SCALES = {
  speakingRateSylPerSec: 1,
  pitchVariabilitySt: 1.5,
  loudnessVariabilityDb: 2,
  medianGapBeforeTurnSec: 0.5,
  pausesPerMin: 5,
  medianTurnSec: 3,
} as const satisfies Partial<Record<keyof SpeakerMetrics, number>>;

export interface ScorePairInput {
  target: SpeakerMetrics;
  member: SpeakerMetrics;
  /** The shared conversations (empty when they never spoke in the same media). */
  conversations: PairConversation[];
  /** Per shared conversation, each one's language measures there (same order), when transcribed. */
  languageTarget?: (LanguageMetrics | null)[];
  languageMember?: (LanguageMetrics | null)[];
  /**
   * How sure the analysis is of the two speakers, 0–1 (pairTrust or, when they never met, the
   * lower profileTrust; speaker-trust.ts): every component's confidence is multiplied by it.
   * 1 when absent.
   */
  trust?: number;
}

function component(key: ComponentKey, name: string, weight: number, score: number | null, confidence: number, inputs: Record<string, number | null>, figures: ComponentScore['figures'] = { measured: score === null ? 0 : 1, possible: 1 }): ComponentScore {
  return { key, name, weight, score, confidence: score === null ? 0 : clamp(confidence, 0, 1), inputs, figures };
}

function gapScore(gap: number | null): number | null {
  if (gap === null) return null;
  return 100 * clamp(1 - Math.abs(gap - SCORING.typicalGapSec) / SCORING.gapToleranceSec, 0, 1);
}

function metComponents(input: ScorePairInput): ComponentScore[] {
  const w = SCORING.weightsMet;
  const p = computePairInteraction(input.conversations);
  const joint = p.speechA + p.speechB;
  const speechConfidence = joint / SCORING.fullConfidenceSpeechSec;

  const gA = gapScore(p.medianGapA);
  const gB = gapScore(p.medianGapB);
  const responses = (gA === null ? 0 : p.responsesA) + (gB === null ? 0 : p.responsesB);
  const responsiveness = responses > 0 ? ((gA ?? 0) * (gA === null ? 0 : p.responsesA) + (gB ?? 0) * (gB === null ? 0 : p.responsesB)) / responses : null;

  // Counted only in the shared media whose track shows overlap (null when none does).
  const iA = p.interruptionsA ?? 0;
  const iB = p.interruptionsB ?? 0;
  const overlapJoint = p.overlapSpeechA + p.overlapSpeechB;
  const perMin = p.interruptionsA !== null && overlapJoint > 0 ? (iA + iB) / (overlapJoint / 60) : null;
  const balance = iA + iB > 0 ? 1 - Math.abs(iA - iB) / (iA + iB) : 1;
  const interruptionScore = perMin === null ? null : 100 * (1 - Math.min(1, perMin / SCORING.interruptionsPerMinCeiling)) * (0.5 + 0.5 * balance);

  const shareA = joint > 0 ? p.speechA / joint : null;
  const floorScore = shareA === null ? null : 100 * (1 - 2 * Math.abs(shareA - 0.5));

  const entrainment = computeEntrainment(input.conversations);
  const langA = aggregateLanguage(input.languageTarget ?? []);
  const langB = aggregateLanguage(input.languageMember ?? []);
  const lsm = lsmOf(langA, langB);
  const lsmInputs: Record<string, number | null> = { wordsTarget: langA?.words ?? null, wordsMember: langB?.words ?? null };
  for (const [k, v] of Object.entries(lsm?.perCategory ?? {})) lsmInputs[`lsm_${k}`] = v;

  const ent = component('entrainment', 'Entrainment', w.entrainment, entrainment.score, entrainment.exchanges / SCORING.fullConfidenceExchanges, {
    exchanges: entrainment.exchanges,
    cellsMeasured: entrainment.cells.filter((c) => c.score !== null).length,
  }, { measured: entrainment.cells.filter((c) => c.score !== null).length, possible: entrainment.cells.length });
  ent.cells = entrainment.cells;
  return [
    component('responsiveness', 'Responsiveness', w.responsiveness, responsiveness, (p.responsesA + p.responsesB) / SCORING.fullConfidenceTransitions, {
      responsesTarget: p.responsesA,
      medianGapTargetSec: p.medianGapA,
      responsesMember: p.responsesB,
      medianGapMemberSec: p.medianGapB,
    }, { measured: (gA === null || p.responsesA === 0 ? 0 : 1) + (gB === null || p.responsesB === 0 ? 0 : 1), possible: 2 }),
    component('interruptions', 'Interruption balance', w.interruptions, interruptionScore, overlapJoint / SCORING.fullConfidenceSpeechSec, {
      interruptionsByTarget: p.interruptionsA,
      interruptionsByMember: p.interruptionsB,
      interruptionsPerMin: perMin,
      jointSpeechMin: overlapJoint / 60,
    }),
    component('floorBalance', 'Floor balance', w.floorBalance, floorScore, speechConfidence, {
      speechTargetSec: p.speechA,
      speechMemberSec: p.speechB,
      targetShareOfPair: shareA,
      turnsTarget: p.turnsA,
      turnsMember: p.turnsB,
    }),
    ent,
    component('languageStyle', 'Language style matching', w.languageStyle, lsm ? 100 * lsm.lsm : null,
      Math.min(langA?.words ?? 0, langB?.words ?? 0) / SCORING.fullConfidenceWords, { lsm: lsm?.lsm ?? null, ...lsmInputs }),
  ];
}

function unmetComponents(a: SpeakerMetrics, b: SpeakerMetrics): ComponentScore[] {
  const w = SCORING.weightsUnmet;
  const speechConfidence = Math.min(a.speechSec, b.speechSec) / SCORING.fullConfidenceSpeechSec;
  const simInputs: Record<string, number | null> = {};
  const sims: number[] = [];
  const keys = Object.keys(SIMILARITY_SCALES) as (keyof typeof SIMILARITY_SCALES)[];
  for (const key of keys) {
    const va = a[key];
    const vb = b[key];
    simInputs[`${key}Target`] = va;
    simInputs[`${key}Member`] = vb;
    if (va === null || vb === null) continue;
    const s = Math.exp(-Math.abs(va - vb) / SIMILARITY_SCALES[key]);
    simInputs[`${key}Similarity`] = s;
    sims.push(s);
  }
  const lsm = lsmOf(a.language, b.language);
  simInputs.lsm = lsm?.lsm ?? null;
  if (lsm) sims.push(lsm.lsm);
  const simScore = sims.length > 0 ? 100 * (mean(sims) ?? 0) : null;
  const coverage = sims.length / (keys.length + 1);

  // Patience fit: does each wait, before taking the floor, longer than the other's own pauses?
  const fits: number[] = [];
  const fit = (gap: number | null, pause: number | null): number | null =>
    gap === null || pause === null ? null : 1 / (1 + Math.exp(-(gap - pause) / 0.25));
  const fitAB = fit(a.medianGapBeforeTurnSec, b.medianPauseSec);
  const fitBA = fit(b.medianGapBeforeTurnSec, a.medianPauseSec);
  if (fitAB !== null) fits.push(fitAB);
  if (fitBA !== null) fits.push(fitBA);
  const patience = mean(fits);
  // Interruption compatibility: two frequent interrupters clash; one is fine.
  const ratePerMin = (m: SpeakerMetrics): number | null => (m.speechSec >= 1 && m.interruptionsMade !== null ? m.interruptionsMade / (m.speechSec / 60) : null);
  const irA = ratePerMin(a);
  const irB = ratePerMin(b);
  const compat = irA === null || irB === null ? null : 1 - Math.min(1, Math.sqrt(irA * irB) / 1);
  const parts = [patience, compat].filter((v): v is number => v !== null);
  const compScore = parts.length > 0 ? 100 * (mean(parts) ?? 0) : null;
  return [
    component('similarity', 'Profile similarity', w.similarity, simScore, speechConfidence * coverage, simInputs, { measured: sims.length, possible: keys.length + 1 }),
    component('complementarity', 'Complementarity', w.complementarity, compScore, speechConfidence * (parts.length / 2), {
      patienceFitTargetAfterMember: fitAB,
      patienceFitMemberAfterTarget: fitBA,
      interruptionsPerMinTarget: irA,
      interruptionsPerMinMember: irB,
      interruptionCompatibility: compat,
    }, { measured: parts.length, possible: 2 }),
  ];
}

export function scorePair(input: ScorePairInput, sharedMediaIds: string[] = input.conversations.map((c) => c.id)): PairScore {
  const met = input.conversations.length > 0;
  const trust = clamp(input.trust ?? 1, 0, 1);
  // A figure about speakers the diarization may have mixed cannot be more certain than they are.
  const components = (met ? metComponents(input) : unmetComponents(input.target, input.member)).map((c) => ({ ...c, confidence: c.confidence * trust }));
  let num = 0;
  let den = 0;
  let weightTotal = 0;
  for (const c of components) {
    weightTotal += c.weight;
    if (c.score === null || c.confidence <= 0) continue;
    num += c.weight * c.confidence * c.score;
    den += c.weight * c.confidence;
  }
  return {
    met,
    sharedMediaIds,
    components,
    overall: { score: den > 0 ? num / den : null, confidence: weightTotal > 0 ? den / weightTotal : 0 },
    trust,
  };
}
