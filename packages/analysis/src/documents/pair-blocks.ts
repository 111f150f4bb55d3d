// Blocks about one target–member pair: a card per component with the inputs it rests on, and
// concrete growth advice for the weakest components.
import { FUNCTION_WORD_CATEGORY_NAMES } from '../language/lexicon.ts';
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

export function componentCards(p: PairEvidence, target: string): CardBlock[] {
  return p.components.map((c) => {
    const head = c.score === null ? `${c.name}: not measured` : `${c.name}: ${score(c.score)}`;
    const conf = c.score === null ? '' : ` Confidence ${percent(c.confidence)}.`;
    return card(COMPONENT_ICONS[c.key], head, `${describe(c, target, p.name)}${conf}`);
  });
}

/** Concrete advice for a weak component, quoting the inputs that made it weak. */
export function componentAdvice(c: ComponentScore, target: string, member: string): CardBlock | null {
  if (c.score === null) return null;
  const s = score(c.score);
  switch (c.key) {
    case 'responsiveness':
      return card('growth', `Answer ${member} sooner`, `Responsiveness with ${member} is ${s}: ${target} took the floor after a median ${measured(inp(c, 'medianGapTargetSec'), 2, 's')}. Picking up within a beat of the end of ${member}'s turn signals attention.`);
    case 'interruptions':
      return card('growth', `Fewer overlaps with ${member}`, `Interruption balance with ${member} is ${s}: ${count(inp(c, 'interruptionsByTarget') ?? 0, 'interruption')} by ${target} and ${inp(c, 'interruptionsByMember') ?? 0} by ${member}. Let a turn land before answering it.`);
    case 'floorBalance': {
      const share = inp(c, 'targetShareOfPair') ?? 0.5;
      return card('growth', share > 0.5 ? `Give ${member} the floor` : `Claim the floor with ${member}`, `Floor balance with ${member} is ${s}: ${target} held ${percent(share)} of their shared talk. ${share > 0.5 ? `Ask ${member} open questions and let the answers run.` : `Bring in ${target}'s own view earlier in the exchange.`}`);
    }
    case 'entrainment':
      return card('growth', `Tune in to ${member}'s voice`, `Entrainment with ${member} is ${s} (unrelated speakers average ${fixed(DOCUMENT_CONSTANTS.unrelatedEntrainment, 0)}): pitch, loudness and pace adapted little across their exchanges. Matching ${member}'s energy and tempo is a known marker of rapport.`);
    case 'languageStyle':
      return card('growth', `Mirror ${member}'s wording`, `Language style matching with ${member} is ${s}. Echoing ${member}'s way of phrasing (pronouns, qualifiers, connectives) raises it.`);
    case 'similarity':
      return card('growth', `Bridge the style gap with ${member}`, `Profile similarity with ${member} is ${s}. ${describe(c, target, member)}`);
    case 'complementarity':
      return card('growth', `Leave room for ${member}`, `Complementarity with ${member} is ${s}. ${describe(c, target, member)}`);
  }
}
