// The four illustrations of a result document (decisions §11: connection, conversation, growth,
// analysis), drawn from the evidence only. One description of each figure (groups of labelled
// bars) feeds both outputs: a text figure for Markdown (figure-text.ts) and SVG for HTML and the
// dashboard (figure-svg.ts). Pure TypeScript: no Node-only import, so a browser can use it.
import { count, duration, fixed, percent, score } from './format.ts';
import type { Block, IllustrationVariant, MatchingEvidence, MemberEvidence, PairEvidence, ResultDocument } from './types.ts';

export interface FigureBar {
  label: string;
  /** On the group's scale; null draws an empty track ("not measured"). */
  value: number | null;
  /** The value as a person reads it, e.g. "72", "2 min 24 s", "35%". */
  text: string;
  /** A remark after the value, e.g. "confidence 65%". */
  note?: string;
}

export interface FigureGroup {
  heading: string;
  /** The value a full bar stands for. */
  max: number;
  bars: FigureBar[];
  /** A reference line across the bars (a threshold or a norm). */
  marker?: { value: number; label: string };
}

export interface Figure {
  variant: IllustrationVariant;
  title: string;
  groups: FigureGroup[];
}

const pct = (v: number | null) => (v === null ? 'not measured' : percent(v));
const sec = (v: number | null, decimals = 2) => (v === null ? 'not measured' : `${fixed(v, decimals)} s`);
const inp = (p: PairEvidence, key: string, input: string): number | null => p.components.find((c) => c.key === key)?.inputs[input] ?? null;
/** What to call a member after the first mention (evidence stored before short names: the name). */
const nameOf = (m: MemberEvidence): string => (m as { shortName?: string }).shortName ?? m.name;
const shortOf = (e: MatchingEvidence, p: PairEvidence): string => {
  const g = e.group.find((x) => x.ref === p.member);
  return g ? nameOf(g) : p.name;
};
/** A constant the documents quote (evidence.method: thresholds and reference values). */
const constant = (e: MatchingEvidence, key: string): number => e.method[key] ?? 0;
const upTo = (...values: (number | null)[]) => Math.max(1e-9, ...values.map((v) => v ?? 0));

function connection(e: MatchingEvidence): Figure {
  return {
    variant: 'connection',
    title: `Compatibility of ${nameOf(e.target)} with each member (0 to ${e.scale.max})`,
    groups: [{
      heading: 'Overall score',
      max: e.scale.max,
      bars: e.pairs.map((p) => ({
        label: shortOf(e, p),
        value: p.overall.score,
        text: p.overall.score === null ? 'not scored' : score(p.overall.score),
        note: `confidence ${percent(p.overall.confidence)}${p.met ? '' : ', never recorded together'}`,
      })),
    }],
  };
}

function pairConversation(e: MatchingEvidence, p: PairEvidence): Figure {
  const t = nameOf(e.target);
  const m = shortOf(e, p);
  const speechT = inp(p, 'floorBalance', 'speechTargetSec');
  const speechM = inp(p, 'floorBalance', 'speechMemberSec');
  const gapT = inp(p, 'responsiveness', 'medianGapTargetSec');
  const gapM = inp(p, 'responsiveness', 'medianGapMemberSec');
  const turnsT = inp(p, 'floorBalance', 'turnsTarget');
  const turnsM = inp(p, 'floorBalance', 'turnsMember');
  return {
    variant: 'conversation',
    title: `How ${t} and ${m} spoke together (${count(p.sharedMediaCount, 'recording')})`,
    groups: [
      { heading: 'Speech', max: upTo(speechT, speechM), bars: [{ label: t, value: speechT, text: duration(speechT) }, { label: m, value: speechM, text: duration(speechM) }] },
      { heading: 'Turns', max: upTo(turnsT, turnsM), bars: [{ label: t, value: turnsT, text: turnsT === null ? 'not measured' : count(turnsT, 'turn') }, { label: m, value: turnsM, text: turnsM === null ? 'not measured' : count(turnsM, 'turn') }] },
      {
        heading: 'Median gap before taking the floor',
        max: upTo(gapT, gapM, constant(e, 'typicalGapSec')),
        bars: [{ label: t, value: gapT, text: sec(gapT) }, { label: m, value: gapM, text: sec(gapM) }],
        marker: { value: constant(e, 'typicalGapSec'), label: `everyday conversation ${sec(constant(e, 'typicalGapSec'), 1)}` },
      },
    ],
  };
}

function profileConversation(e: MatchingEvidence): Figure {
  const t = e.target;
  const x = t.metrics;
  return {
    variant: 'conversation',
    title: `How ${nameOf(t)} takes part in conversation`,
    groups: [
      { heading: 'Average talk share', max: 1, bars: [{ label: nameOf(t), value: x.talkShare, text: pct(x.talkShare) }] },
      {
        heading: 'Turn length',
        max: upTo(x.longestTurnSec),
        bars: [{ label: 'median', value: x.medianTurnSec, text: sec(x.medianTurnSec, 1) }, { label: 'longest', value: x.longestTurnSec, text: duration(x.longestTurnSec) }],
      },
      gapGroup(e, t, 'typical'),
    ],
  };
}

/**
 * The target's median gap, on one scale in both figures that draw it, marked with the norm the
 * figure is about: everyday conversation's gap where it shows how they take part, the long gap
 * that the advice answers in growth. (Growth once marked everyday conversation too, and so drew
 * the conversation figure's group again, the same bar and the same mark, for no reason.)
 */
function gapGroup(e: MatchingEvidence, t: MemberEvidence, norm: 'typical' | 'long'): FigureGroup {
  const gap = t.metrics.medianGapBeforeTurnSec;
  const typical = constant(e, 'typicalGapSec');
  const long = constant(e, 'longGapSec');
  return {
    heading: 'Median gap before taking the floor',
    max: upTo(gap, typical, long),
    bars: [{ label: nameOf(t), value: gap, text: sec(gap) }],
    marker: norm === 'typical' ? { value: typical, label: `everyday conversation ${sec(typical, 1)}` } : { value: long, label: `long above ${sec(long, 1)}` },
  };
}

function growth(e: MatchingEvidence): Figure {
  const threshold = constant(e, 'growthThreshold');
  if (e.kind === 'report' || e.pairs.length === 0) {
    const t = e.target;
    return {
      variant: 'growth',
      title: `${nameOf(t)} against conversational norms`,
      groups: [
        gapGroup(e, t, 'long'),
        {
          heading: 'Average talk share',
          max: 1,
          bars: [{ label: nameOf(t), value: t.metrics.talkShare, text: pct(t.metrics.talkShare) }],
          marker: { value: constant(e, 'dominantShare'), label: `dominant above ${percent(constant(e, 'dominantShare'))}` },
        },
      ],
    };
  }
  const several = e.pairs.length > 1;
  const bars = e.pairs
    .flatMap((p) => p.components.filter((c) => c.score !== null).map((c) => ({ p, c })))
    .sort((a, b) => (a.c.score ?? 0) - (b.c.score ?? 0))
    .slice(0, 8)
    .map(({ p, c }) => ({ label: several ? `${c.name} with ${shortOf(e, p)}` : c.name, value: c.score, text: score(c.score ?? 0), note: `confidence ${percent(c.confidence)}` }));
  return {
    variant: 'growth',
    title: `Component scores, lowest first (advice below ${fixed(threshold, 0)})`,
    groups: [{ heading: 'Score', max: e.scale.max, bars, marker: { value: threshold, label: `growth threshold ${fixed(threshold, 0)}` } }],
  };
}

function analysis(e: MatchingEvidence): Figure {
  const members = [e.target, ...e.group];
  const groups: FigureGroup[] = [{
    heading: 'Speech analysed',
    max: upTo(...members.map((m) => m.metrics.speechSec)),
    bars: members.map((m) => ({
      label: nameOf(m),
      value: m.metrics.speechSec,
      text: duration(m.metrics.speechSec),
      note: `${count(m.mediaCount, 'recording')}, ${m.transcribedMediaCount} with a transcript; profile confidence ${percent(m.profileConfidence)}`,
    })),
  }];
  if (e.pairs.length > 0) {
    groups.push({ heading: 'Confidence of each pair', max: 1, bars: e.pairs.map((p) => ({ label: shortOf(e, p), value: p.overall.confidence, text: percent(p.overall.confidence) })) });
  }
  return { variant: 'analysis', title: 'What the figures rest on', groups };
}

/**
 * The figure of one illustration block. `occurrence` counts earlier blocks of the same variant in
 * the document: a matching document's k-th conversation illustration is its k-th pair that met.
 */
export function figureFor(variant: IllustrationVariant, evidence: MatchingEvidence, occurrence = 0): Figure | null {
  switch (variant) {
    case 'connection':
      return evidence.pairs.length ? connection(evidence) : null;
    case 'conversation': {
      if (evidence.kind === 'report') return profileConversation(evidence);
      const pair = evidence.pairs.filter((p) => p.met)[occurrence];
      return pair ? pairConversation(evidence, pair) : null;
    }
    case 'growth':
      return growth(evidence);
    case 'analysis':
      return analysis(evidence);
  }
}

/** Each illustration block of a document, in reading order, with its figure. */
export function documentFigures(doc: ResultDocument, evidence: MatchingEvidence): { block: Block & { type: 'illustration' }; figure: Figure | null }[] {
  const seen: Partial<Record<IllustrationVariant, number>> = {};
  const out: { block: Block & { type: 'illustration' }; figure: Figure | null }[] = [];
  for (const s of doc.sections) {
    const c = s.section_content;
    const blocks: Block[] = Array.isArray(c) ? c : 'type' in c ? [c as Block] : [];
    for (const b of blocks) {
      if (b.type !== 'illustration') continue;
      const k = seen[b.variant] ?? 0;
      seen[b.variant] = k + 1;
      out.push({ block: b, figure: figureFor(b.variant, evidence, k) });
    }
  }
  return out;
}
