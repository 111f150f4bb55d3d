// Turn-taking against the dev set's utterance-level truth (devNN.json): the counts the manifest
// defines (turns, interruptions, backchannels, overlapped time) recomputed from the utterances,
// and the engine's own events matched to them in time, so that a count that happens to agree
// cannot hide events found in the wrong places.
import type { MediaAnalysis } from '../packages/analysis/src/types.ts';

export interface RefUtterance {
  speaker: string;
  start: number;
  end: number;
  kind?: string;
}

interface Event {
  speaker: string;
  start: number;
  end: number;
}

export interface TurnTakingTruth {
  turns: number;
  interruptions: Event[];
  backchannels: Event[];
  overlapSec: number;
}

/**
 * The manifest's definitions (`definitions` in manifest.json) applied to the utterances; the
 * overlapped time from the RTTM segments (utterances cut at their internal pauses), as the
 * manifest counts it.
 */
export function referenceTurnTaking(utterances: readonly RefUtterance[], segments: readonly RefUtterance[] = utterances): TurnTakingTruth {
  const u = [...utterances].sort((a, b) => a.start - b.start);
  const talk = u.filter((x) => x.kind !== 'backchannel');
  let turns = 0;
  const interruptions: Event[] = [];
  talk.forEach((x, k) => {
    if (k > 0 && talk[k - 1]!.speaker === x.speaker) return; // the run continues
    turns++;
    if (talk.slice(0, k).some((o) => o.speaker !== x.speaker && o.end > x.start)) interruptions.push(x);
  });
  return { turns, interruptions, backchannels: u.filter((x) => x.kind === 'backchannel'), overlapSec: overlappedSec(segments) };
}

/** Time during which two or more speakers speak at once. */
function overlappedSec(u: readonly RefUtterance[]): number {
  const edges = u.flatMap((x) => [{ t: x.start, d: 1 }, { t: x.end, d: -1 }]).sort((a, b) => a.t - b.t || a.d - b.d);
  let active = 0;
  let total = 0;
  let last = 0;
  for (const e of edges) {
    if (active >= 2) total += e.t - last;
    active += e.d;
    last = e.t;
  }
  return total;
}

export interface EventScore {
  ref: number;
  /** Null when the analysis does not measure them (audio alone: no overlapped speech). */
  hyp: number | null;
  /** Hypothesis events that match a reference event (same mapped speaker, in time). */
  matched: number | null;
}

export interface TurnTakingScore {
  turns: { ref: number; hyp: number };
  interruptions: EventScore;
  backchannels: EventScore;
  overlapSec: { ref: number; hyp: number | null };
}

/** An interruption matches when it starts within this of the reference one (boundaries move). */
const START_TOLERANCE_SEC = 1;

/**
 * Scores the analysis's turns against the truth. `toRef` maps hypothesis speakers to reference
 * speakers (the DER mapping); an event of an unmapped speaker never matches.
 */
export function scoreTurnTaking(analysis: MediaAnalysis, truth: TurnTakingTruth, toRef: ReadonlyMap<number, string>): TurnTakingScore {
  const hypOf = (pred: (t: MediaAnalysis['turns'][number]) => boolean): Event[] =>
    analysis.turns.filter(pred).map((t) => ({ speaker: toRef.get(t.speaker) ?? `unmapped:${t.speaker}`, start: t.start, end: t.end }));
  const interruptions = hypOf((t) => t.interrupts);
  const backchannels = hypOf((t) => t.backchannel);
  const overlaps = analysis.speakers.map((s) => s.metrics.overlapSec);
  // A recording with no speaker has nothing measured (not zero events).
  const measured = analysis.speakers.length > 0 && analysis.speakers.every((s) => s.metrics.interruptionsMade !== null);
  const notMeasured = (ref: number): EventScore => ({ ref, hyp: null, matched: null });
  return {
    turns: { ref: truth.turns, hyp: analysis.turns.filter((t) => !t.backchannel).length },
    interruptions: measured ? matchEvents(interruptions, truth.interruptions, (h, r) => Math.abs(h.start - r.start) <= START_TOLERANCE_SEC) : notMeasured(truth.interruptions.length),
    backchannels: measured ? matchEvents(backchannels, truth.backchannels, (h, r) => h.start < r.end && r.start < h.end) : notMeasured(truth.backchannels.length),
    // Each overlapped second is counted once per speaker in it; two speakers is the usual case.
    overlapSec: { ref: truth.overlapSec, hyp: halved(total(overlaps)) },
  };
}

/** Greedy one-to-one matching in time order. */
function matchEvents(hyp: readonly Event[], ref: readonly Event[], near: (h: Event, r: Event) => boolean): EventScore {
  const used = new Set<number>();
  let matched = 0;
  for (const h of hyp) {
    const k = ref.findIndex((r, i) => !used.has(i) && r.speaker === h.speaker && near(h, r));
    if (k < 0) continue;
    used.add(k);
    matched++;
  }
  return { ref: ref.length, hyp: hyp.length, matched };
}

/** Sums per-file scores for the set's table. */
export function sumTurnTaking(scores: readonly TurnTakingScore[]): TurnTakingScore {
  const ev = (k: 'interruptions' | 'backchannels'): EventScore => ({
    ref: scores.reduce((a, s) => a + s[k].ref, 0),
    hyp: total(scores.map((s) => s[k].hyp)),
    matched: total(scores.map((s) => s[k].matched)),
  });
  return {
    turns: { ref: scores.reduce((a, s) => a + s.turns.ref, 0), hyp: scores.reduce((a, s) => a + s.turns.hyp, 0) },
    interruptions: ev('interruptions'),
    backchannels: ev('backchannels'),
    overlapSec: {
      ref: scores.reduce((a, s) => a + s.overlapSec.ref, 0),
      hyp: total(scores.map((s) => s.overlapSec.hyp)),
    },
  };
}

const halved = (x: number | null): number | null => (x === null ? null : x / 2);

/** The sum, or null when any part was not measured. */
function total(values: readonly (number | null)[]): number | null {
  return values.some((v) => v === null) ? null : values.reduce<number>((a, v) => a + (v ?? 0), 0);
}

/** `matched/hyp found, matched/ref recalled` as precision and recall text. */
export function formatEvents(e: EventScore): string {
  if (e.hyp === null || e.matched === null) return `not measured (${e.ref} true)`;
  const p = e.hyp ? (e.matched / e.hyp).toFixed(2) : '-';
  const r = e.ref ? (e.matched / e.ref).toFixed(2) : '-';
  return `${e.hyp} found / ${e.ref} true, ${e.matched} matched (P ${p}, R ${r})`;
}
