// Acoustic-prosodic entrainment between two speakers who talk to each other (Levitan & Hirschberg
// 2011), on pitch, loudness and speaking rate, from the turn exchanges between them:
// - proximity: adjacent turns are closer in value than the same turns paired at random;
// - convergence: the distance between adjacent turns shrinks over the conversation;
// - synchrony: a turn's initial value follows the partner's previous turn-final value.
// Each is tested against a shuffled baseline (partners' turns re-paired at random within the
// same media and direction, so speaker-level differences cancel). The score is the share of
// shuffles the real pairing beats, times 100: unrelated speakers average 50, entrained ones
// approach 100. Shuffles come from a seeded generator so a result is reproducible.
import type { Turn } from '../types.ts';
import { floorTransfers } from './speaker-metrics.ts';
import { mean, pearson, seededRandom, shuffled, std } from './stats.ts';

export const ENTRAINMENT_FEATURES = ['pitch', 'loudness', 'rate'] as const;
export const ENTRAINMENT_MEASURES = ['proximity', 'convergence', 'synchrony'] as const;
export type EntrainmentFeature = (typeof ENTRAINMENT_FEATURES)[number];
export type EntrainmentMeasure = (typeof ENTRAINMENT_MEASURES)[number];

/** Shuffles per test; 200 resolves a score to half a point. */
export const PERMUTATIONS = 200;
/** Fewer exchanges than this and a cell is not measured. */
export const MIN_EXCHANGES = 5;

export interface EntrainmentCell {
  feature: EntrainmentFeature;
  measure: EntrainmentMeasure;
  /** Proximity: mean absolute difference (feature unit); convergence and synchrony: Pearson r. */
  observed: number | null;
  /** Mean of the same statistic over the shuffles. */
  baseline: number | null;
  /** Share of shuffles beaten, 0–100; null when too few exchanges. */
  score: number | null;
  exchanges: number;
}

export interface EntrainmentResult {
  cells: EntrainmentCell[];
  /** Mean of the measured cells' scores, 0–100, or null when none could be measured. */
  score: number | null;
  exchanges: number;
}

interface Exchange {
  group: string;
  /** Position of the exchange in its conversation, 0..1. */
  time: number;
  prev: number;
  cur: number;
  prevFinal: number;
  curInitial: number;
}

/** One conversation's turns, and which two speakers of it are the pair. */
export interface SharedConversation {
  id: string;
  durationSec: number;
  turns: readonly Turn[];
  a: number;
  b: number;
}

function turnValue(t: Turn, f: EntrainmentFeature): number | null {
  if (f === 'pitch') return t.pitchSt;
  if (f === 'loudness') return t.loudnessDb;
  return t.rateSylPerSec;
}
function finalValue(t: Turn, f: EntrainmentFeature): number | null {
  if (f === 'pitch') return t.finalPitchSt;
  if (f === 'loudness') return t.finalLoudnessDb;
  return t.rateSylPerSec;
}
function initialValue(t: Turn, f: EntrainmentFeature): number | null {
  if (f === 'pitch') return t.initialPitchSt;
  if (f === 'loudness') return t.initialLoudnessDb;
  return t.rateSylPerSec;
}

function exchangesOf(conv: SharedConversation, f: EntrainmentFeature): Exchange[] {
  const out: Exchange[] = [];
  const duration = conv.durationSec > 0 ? conv.durationSec : 1;
  for (const x of floorTransfers(conv.turns)) {
    const pairOk = (x.from === conv.a && x.to === conv.b) || (x.from === conv.b && x.to === conv.a);
    if (!pairOk) continue;
    const prev = turnValue(x.previous, f);
    const cur = turnValue(x.turn, f);
    const prevFinal = finalValue(x.previous, f);
    const curInitial = initialValue(x.turn, f);
    if (prev === null || cur === null || prevFinal === null || curInitial === null) continue;
    out.push({ group: `${conv.id}:${x.from}>${x.to}`, time: x.turn.start / duration, prev, cur, prevFinal, curInitial });
  }
  return out;
}

/** Re-pair within groups: each exchange keeps its own current turn, gets a random previous one. */
function permuteWithinGroups<T>(items: readonly Exchange[], pick: (e: Exchange) => T, random: () => number): T[] {
  const byGroup = new Map<string, number[]>();
  items.forEach((e, i) => {
    const list = byGroup.get(e.group) ?? [];
    list.push(i);
    byGroup.set(e.group, list);
  });
  const out: T[] = items.map(pick);
  for (const indices of byGroup.values()) {
    const values = shuffled(indices.map((i) => pick(items[i] as Exchange)), random);
    indices.forEach((idx, k) => {
      out[idx] = values[k] as T;
    });
  }
  return out;
}

/** Share of baseline statistics that the observed one beats (ties count half), 0–100. */
function beatShare(observed: number, baseline: readonly number[], lowerIsBetter: boolean): number {
  let wins = 0;
  for (const b of baseline) {
    if (b === observed) wins += 0.5;
    else if (lowerIsBetter ? observed < b : observed > b) wins += 1;
  }
  return (100 * wins) / baseline.length;
}

/** Per-speaker z-scores of synchrony inputs so that level differences do not fake a correlation. */
function zByGroupSide(items: readonly Exchange[]): { prevFinal: number[]; curInitial: number[] } {
  const norm = (values: number[], groups: string[]): number[] => {
    const stats = new Map<string, { m: number; s: number }>();
    for (const g of new Set(groups)) {
      const vs = values.filter((_, i) => groups[i] === g);
      const s = std(vs);
      stats.set(g, { m: mean(vs) ?? 0, s: s && s > 1e-9 ? s : 1 });
    }
    return values.map((v, i) => {
      const st = stats.get(groups[i] ?? '') ?? { m: 0, s: 1 };
      return (v - st.m) / st.s;
    });
  };
  const groups = items.map((e) => e.group);
  return { prevFinal: norm(items.map((e) => e.prevFinal), groups), curInitial: norm(items.map((e) => e.curInitial), groups) };
}

function cell(feature: EntrainmentFeature, measure: EntrainmentMeasure, ex: readonly Exchange[], seed: number): EntrainmentCell {
  const empty: EntrainmentCell = { feature, measure, observed: null, baseline: null, score: null, exchanges: ex.length };
  if (ex.length < MIN_EXCHANGES) return empty;
  const random = seededRandom(seed);
  const baseline: number[] = [];
  let observed: number | null;
  let lowerIsBetter: boolean;
  if (measure === 'proximity') {
    const stat = (prev: readonly number[]): number => mean(ex.map((e, i) => Math.abs(e.cur - (prev[i] ?? 0)))) ?? 0;
    observed = stat(ex.map((e) => e.prev));
    lowerIsBetter = true;
    for (let p = 0; p < PERMUTATIONS; p += 1) baseline.push(stat(permuteWithinGroups(ex, (e) => e.prev, random)));
  } else if (measure === 'convergence') {
    // Distance over time, within each conversation: a negative r is convergence.
    const diffs = ex.map((e) => Math.abs(e.cur - e.prev));
    const times = ex.map((e) => e.time);
    observed = pearson(times, diffs);
    lowerIsBetter = true;
    const diffOf = new Map(ex.map((e, i) => [e, diffs[i] ?? 0]));
    for (let p = 0; p < PERMUTATIONS; p += 1) {
      const r = pearson(times, permuteWithinGroups(ex, (e) => diffOf.get(e) ?? 0, random));
      if (r !== null) baseline.push(r);
    }
  } else {
    const z = zByGroupSide(ex);
    observed = pearson(z.prevFinal, z.curInitial);
    lowerIsBetter = false;
    const zOf = new Map(ex.map((e, i) => [e, z.prevFinal[i] ?? 0]));
    for (let p = 0; p < PERMUTATIONS; p += 1) {
      const r = pearson(permuteWithinGroups(ex, (e) => zOf.get(e) ?? 0, random), z.curInitial);
      if (r !== null) baseline.push(r);
    }
  }
  if (observed === null || baseline.length === 0) return empty;
  // When every re-pairing gives the observed value (e.g. the two speakers' ranges do not
  // overlap, so every pairing has the same mean distance) the test carries no information.
  if (baseline.every((b) => Math.abs(b - observed) < 1e-9)) return { ...empty, observed, baseline: observed };
  return { ...empty, observed, baseline: mean(baseline), score: beatShare(observed, baseline, lowerIsBetter) };
}

export function computeEntrainment(conversations: readonly SharedConversation[]): EntrainmentResult {
  const cells: EntrainmentCell[] = [];
  let maxExchanges = 0;
  ENTRAINMENT_FEATURES.forEach((feature, fi) => {
    const ex = conversations.flatMap((c) => exchangesOf(c, feature));
    maxExchanges = Math.max(maxExchanges, ex.length);
    ENTRAINMENT_MEASURES.forEach((measure, mi) => {
      cells.push(cell(feature, measure, ex, 0x5eed + fi * 31 + mi * 7));
    });
  });
  const scores = cells.map((c) => c.score).filter((s): s is number => s !== null);
  return { cells, score: mean(scores), exchanges: maxExchanges };
}
