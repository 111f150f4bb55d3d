// Blocks about one target–member pair: a card per component with the inputs it rests on, and
// concrete growth advice for the weakest components.
import { FUNCTION_WORD_CATEGORY_NAMES } from '../language/lexicon.ts';
import { SCORING } from '../matching/scoring.ts';
import type { ComponentScore } from '../matching/scoring.ts';
import { card, OVERLAP_NOT_MEASURED } from './blocks.ts';
import { DOCUMENT_CONSTANTS } from './evidence.ts';
import type { IconKey } from './icons.ts';
import { count, duration, fixed, measured, percent, score } from './format.ts';
import type { CardBlock, PairEvidence } from './types.ts';

const FEATURE_NAMES: Record<string, string> = {
  speakingRateSylPerSec: 'speaking rate',
  pitchVariabilitySt: 'pitch variability',
  loudnessVariabilityDb: 'loudness variability',
  medianGapBeforeTurnSec: 'gap before taking the floor',
  pausesPerMin: 'pauses per minute',
  medianTurnSec: 'turn length',
};

/** Each compared feature's value as a person reads it: decimals and unit. */
const FEATURE_UNITS: Record<string, [number, string]> = {
  speakingRateSylPerSec: [1, 'syllables/s'],
  pitchVariabilitySt: [1, 'semitones'],
  loudnessVariabilityDb: [1, 'dB'],
  medianGapBeforeTurnSec: [2, 's'],
  pausesPerMin: [1, 'per minute'],
  medianTurnSec: [1, 's'],
};

function featureValue(key: string, v: number | null): string {
  const [decimals, unit] = FEATURE_UNITS[key] ?? [2, ''];
  return measured(v, decimals, unit);
}

function inp(c: ComponentScore, key: string): number | null {
  return c.inputs[key] ?? null;
}

function minutes(min: number | null): string {
  return duration(min === null ? null : min * 60);
}

function describe(c: ComponentScore, target: string, member: string): string {
  switch (c.key) {
    case 'responsiveness':
      return `${member} took the floor from ${target} after a median ${measured(inp(c, 'medianGapMemberSec'), 2, 's')} (${count(inp(c, 'responsesMember') ?? 0, 'time')}); ${target} answered after ${measured(inp(c, 'medianGapTargetSec'), 2, 's')} (${count(inp(c, 'responsesTarget') ?? 0, 'time')}).`;
    case 'interruptions':
      // Unmeasured counts are null, not zero: "0 times ... of 0.0 min" would state a measurement.
      if (inp(c, 'interruptionsByTarget') === null || inp(c, 'interruptionsByMember') === null)
        return `Not measured: no recording they share shows overlapping speech (${OVERLAP_NOT_MEASURED}).`;
      return `${target} interrupted ${member} ${count(inp(c, 'interruptionsByTarget') ?? 0, 'time')} and ${member} interrupted ${target} ${count(inp(c, 'interruptionsByMember') ?? 0, 'time')}: ${measured(inp(c, 'interruptionsPerMin'), 2, 'per minute')} of their ${minutes(inp(c, 'jointSpeechMin'))} of speech.`;
    case 'floorBalance': {
      const share = inp(c, 'targetShareOfPair');
      return `${target} spoke ${duration(inp(c, 'speechTargetSec'))} and ${member} ${duration(inp(c, 'speechMemberSec'))}${share === null ? '' : `: ${target} held ${percent(share)} of their shared talk`}; ${inp(c, 'turnsTarget') ?? 0} and ${inp(c, 'turnsMember') ?? 0} turns.`;
    }
    case 'entrainment': {
      const features = ['pitch', 'loudness', 'rate'].map((f) => {
        const cells = (c.cells ?? []).filter((x) => x.feature === f && x.score !== null);
        return cells.length === 0 ? `${f}: not measured` : `${f}: ${cells.map((x) => `${x.measure} ${score(x.score ?? 0)}`).join(', ')}`;
      });
      return `Against shuffled pairings of their ${count(inp(c, 'exchanges') ?? 0, 'exchange')}: ${features.join('; ')}.`;
    }
    case 'languageStyle': {
      if (c.score === null) return 'Not measured: needs transcript lines from both in a recording they share.';
      const cats = Object.entries(c.inputs)
        .filter(([k, v]) => k.startsWith('lsm_') && v !== null)
        .sort((a, b) => (a[1] ?? 0) - (b[1] ?? 0));
      const lowest = cats[0];
      const lowName = lowest ? FUNCTION_WORD_CATEGORY_NAMES[lowest[0].slice(4) as keyof typeof FUNCTION_WORD_CATEGORY_NAMES] : null;
      return `LSM ${measured(inp(c, 'lsm'), 2)} over the nine function-word categories, from ${inp(c, 'wordsTarget') ?? 0} and ${inp(c, 'wordsMember') ?? 0} words${lowest && lowName ? `; least alike in ${lowName} (${fixed(lowest[1] ?? 0, 2)})` : ''}.`;
    }
    case 'similarity': {
      const sims = Object.keys(FEATURE_NAMES)
        .map((k) => ({ k, s: inp(c, `${k}Similarity`) }))
        .filter((x): x is { k: string; s: number } => x.s !== null)
        .sort((a, b) => a.s - b.s);
      const worst = sims[0];
      const best = sims[sims.length - 1];
      if (!worst || !best) return 'Not enough measurements of both to compare.';
      return `Compared on ${count(sims.length, 'measure')}: most alike in ${FEATURE_NAMES[best.k]}, most different in ${FEATURE_NAMES[worst.k]} (${target} ${featureValue(worst.k, inp(c, `${worst.k}Target`))}, ${member} ${featureValue(worst.k, inp(c, `${worst.k}Member`))}).${inp(c, 'lsm') === null ? '' : ` Language style matching ${measured(inp(c, 'lsm'), 2)}.`}`;
    }
    case 'complementarity':
      return `Patience fit (waiting past the other's pauses): ${target} ${fitText(inp(c, 'patienceFitTargetAfterMember'))}, ${member} ${fitText(inp(c, 'patienceFitMemberAfterTarget'))}; interruptions per minute of own speech: ${target} ${measured(inp(c, 'interruptionsPerMinTarget'), 2)}, ${member} ${measured(inp(c, 'interruptionsPerMinMember'), 2)}.`;
  }
}

function fitText(v: number | null): string {
  return v === null ? 'not measured' : percent(v);
}

const COMPONENT_ICONS: Record<ComponentScore['key'], IconKey> = {
  responsiveness: 'responsiveness',
  interruptions: 'interruptions',
  floorBalance: 'floorBalance',
  entrainment: 'entrainment',
  languageStyle: 'languageStyle',
  similarity: 'similarity',
  complementarity: 'complementarity',
};

/** Decisions §20: a composite measured from one of its figures says so. */
export function singleFigure(c: ComponentScore): boolean {
  return c.score !== null && c.figures.possible > 1 && c.figures.measured === 1;
}

function singleFigureNote(c: ComponentScore): string {
  return singleFigure(c) ? ` Rests on one measured figure of ${c.figures.possible}.` : '';
}

/** Why a confidence is held down by the speakers it rests on (decisions §20), or nothing. */
export function trustNote(p: PairEvidence): string {
  if (p.trust >= DOCUMENT_CONSTANTS.lowTrust) return '';
  return ` The speakers of ${p.met ? 'these recordings' : 'their recordings'} may be mixed with other voices (speaker trust ${percent(p.trust)}), so no confidence here exceeds it.`;
}

export function componentCards(p: PairEvidence, target: string): CardBlock[] {
  return p.components.map((c) => {
    const head = c.score === null ? `${c.name}: not measured` : `${c.name}: ${score(c.score)}`;
    const conf = c.score === null ? '' : ` Confidence ${percent(c.confidence)}.`;
    return card(COMPONENT_ICONS[c.key], head, `${describe(c, target, p.name)}${singleFigureNote(c)}${conf}`);
  });
}

const FEATURE_WORDS: Record<string, string> = { pitch: 'pitch', loudness: 'loudness', rate: 'pace' };

/** Each entrainment feature's measured cells' mean score, or null when none was measured. */
export function featureMeans(c: ComponentScore): { feature: string; word: string; mean: number | null }[] {
  return ['pitch', 'loudness', 'rate'].map((f) => {
    const cells = (c.cells ?? []).filter((x) => x.feature === f && x.score !== null);
    const mean = cells.length === 0 ? null : cells.reduce((a, x) => a + (x.score ?? 0), 0) / cells.length;
    return { feature: f, word: FEATURE_WORDS[f] ?? f, mean };
  });
}

/** "A", "A and B", "A, B and C". */
function listOf(words: string[]): string {
  return words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1] ?? ''}`;
}

/** The entrainment advice's sentence: only the features measured low are said to have adapted little. */
function entrainmentWhy(c: ComponentScore): string {
  const means = featureMeans(c);
  const low = means.filter((m) => m.mean !== null && m.mean < DOCUMENT_CONSTANTS.growthThreshold);
  const high = means.filter((m) => m.mean !== null && m.mean >= DOCUMENT_CONSTANTS.growthThreshold);
  const none = means.filter((m) => m.mean === null);
  const lowText = `${listOf(low.map((m) => `${m.word} (${score(m.mean ?? 0)})`))} adapted little across their exchanges`;
  const highText = high.length ? `; ${listOf(high.map((m) => `${m.word} (${score(m.mean ?? 0)})`))} did adapt` : '';
  const noneText = none.length ? `; ${listOf(none.map((m) => m.word))} not measured` : '';
  return `${lowText}${highText}${noneText}`;
}

/** Concrete advice for a weak component, quoting the inputs that made it weak. */
export function componentAdvice(c: ComponentScore, target: string, member: string): CardBlock | null {
  if (c.score === null) return null;
  const s = score(c.score);
  switch (c.key) {
    case 'responsiveness': {
      // Advice to the target only from the target's own gap, and only when that gap is off.
      const gap = inp(c, 'medianGapTargetSec');
      const typical = DOCUMENT_CONSTANTS.typicalGapSec;
      const ownScore = gap === null ? null : 100 * Math.max(0, 1 - Math.abs(gap - typical) / SCORING.gapToleranceSec);
      if (gap === null || ownScore === null || !inp(c, 'responsesTarget') || ownScore >= DOCUMENT_CONSTANTS.growthThreshold) return null;
      const late = gap > typical;
      return card('growth', late ? `Answer ${member} sooner` : `Let ${member} finish`, `Responsiveness with ${member} is ${s}: ${target} took the floor after a median ${measured(gap, 2, 's')}, against about ${fixed(typical, 1)} s in everyday conversation. ${late ? `Picking up within a beat of the end of each turn of ${member} signals attention.` : `Waiting for the end of each turn of ${member} before answering signals attention.`}`);
    }
    case 'interruptions': {
      const byTarget = inp(c, 'interruptionsByTarget');
      // Being interrupted is not the target's to fix: no advice when the target made none.
      if (byTarget === null || byTarget <= 0) return null;
      return card('growth', `Fewer overlaps with ${member}`, `Interruption balance with ${member} is ${s}: ${count(byTarget, 'interruption')} by ${target} and ${inp(c, 'interruptionsByMember') ?? 0} by ${member}. Let a turn land before answering it.`);
    }
    case 'floorBalance': {
      const share = inp(c, 'targetShareOfPair');
      if (share === null || share === 0.5) return null;
      return card('growth', share > 0.5 ? `Give ${member} the floor` : `Claim the floor with ${member}`, `Floor balance with ${member} is ${s}: ${target} held ${percent(share)} of their shared talk. ${share > 0.5 ? `Ask ${member} open questions and let the answers run.` : `${target} could share a view earlier in the exchange.`}`);
    }
    case 'entrainment':
      return card('growth', `Tune in to the voice of ${member}`, `Entrainment with ${member} is ${s} (unrelated speakers average ${fixed(DOCUMENT_CONSTANTS.unrelatedEntrainment, 0)}): ${entrainmentWhy(c)}. Matching the energy and tempo of ${member} is a known marker of rapport.`);
    case 'languageStyle':
      return card('growth', `Mirror the wording of ${member}`, `Language style matching with ${member} is ${s}. Echoing the way ${member} phrases things (pronouns, qualifiers, connectives) raises it.`);
    case 'similarity':
      return card('growth', `Bridge the style gap with ${member}`, `Profile similarity with ${member} is ${s}. ${describe(c, target, member)}${singleFigureNote(c)}`);
    case 'complementarity':
      return card('growth', `Leave room for ${member}`, `Complementarity with ${member} is ${s}. ${describe(c, target, member)}${singleFigureNote(c)}`);
  }
}
