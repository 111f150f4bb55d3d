// Decisions §15: the speaker count the user asked for, against the count the analysis ended
// with. The diarization keeps within the hint whenever the speech allows (issue 31); when it
// cannot, the analysis says so instead of failing silently (as pyannote warns when its count
// falls outside the user's bounds).
import type { AnalysisWarning, AskedSpeakers, SpeakerCountHint } from './types.ts';

type CountEvidence = { nearestPair: number | null; widestSplit: number | null };

/**
 * When a count found without a hint is flagged as uncertain (count evidence, count-evidence.ts):
 * its two nearest speakers lie closer than `near` in the window embedding (maybe one too many),
 * or one speaker's runs split further apart than `split` (maybe one too few). Fitted on the
 * speaker-disjoint folds of real voices with eval/count-certainty.ts (docs/analysis-speech.md,
 * "Say when unsure").
 */
export const COUNT_UNCERTAIN = { near: 0, split: Infinity };

/** The speaker_count_uncertain warning of a count the user gave no hint for, or none. */
export function uncertainCount(found: number, evidence: CountEvidence | undefined, rule = COUNT_UNCERTAIN): AnalysisWarning[] {
  if (!evidence) return [];
  const fewer = evidence.nearestPair !== null && evidence.nearestPair < rule.near;
  const more = evidence.widestSplit !== null && evidence.widestSplit > rule.split;
  if (!fewer && !more) return [];
  const maybe = fewer && more ? 'either' : fewer ? 'fewer' : 'more';
  const what = maybe === 'fewer' ? `two of the ${voices(found)} sound alike and may be one person` : maybe === 'more' ? `one of the ${voices(found)} may be two people` : `two voices sound alike and another may be two people`;
  return [{ code: 'speaker_count_uncertain', found, maybe, reason: `the number of speakers is uncertain (${what}): give a speaker-count hint if you know it` }];
}

const voices = (n: number): string => `${n} ${n === 1 ? 'voice' : 'voices'}`;

/** The warnings of an analysis that found `found` speakers under `hint` (none without a hint, or when it was met). */
export function speakerCountWarnings(hint: SpeakerCountHint | undefined, found: number, evidence?: CountEvidence): AnalysisWarning[] {
  if (!hint) return uncertainCount(found, evidence);
  const asked: AskedSpeakers = hint.exact !== undefined ? { numSpeakers: hint.exact } : { ...(hint.min !== undefined ? { minSpeakers: hint.min } : {}), ...(hint.max !== undefined ? { maxSpeakers: hint.max } : {}) };
  const min = hint.exact ?? hint.min ?? 1;
  const max = hint.exact ?? hint.max ?? Infinity;
  if (found >= min && found <= max) return [];
  const want = hint.exact !== undefined ? `exactly ${hint.exact}` : found < min ? `at least ${min}` : `at most ${max}`;
  const reason = found < min
    ? `${want} speakers were asked for, but the speech holds only ${voices(found)} with stretches long enough to tell apart`
    : `${want} speakers were asked for, but the speech holds ${voices(found)} too different to be merged`;
  return [{ code: 'hint_not_met', asked, found, reason }];
}
