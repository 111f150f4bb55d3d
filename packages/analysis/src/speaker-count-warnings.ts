// Decisions §15: the speaker count the user asked for, against the count the analysis ended
// with. The diarization keeps within the hint whenever the speech allows (issue 31); when it
// cannot, the analysis says so instead of failing silently (as pyannote warns when its count
// falls outside the user's bounds).
import type { AnalysisWarning, AskedSpeakers, SpeakerCountHint } from './types.ts';

const voices = (n: number): string => `${n} ${n === 1 ? 'voice' : 'voices'}`;

/** The warnings of an analysis that found `found` speakers under `hint` (none without a hint, or when it was met). */
export function speakerCountWarnings(hint: SpeakerCountHint | undefined, found: number): AnalysisWarning[] {
  if (!hint) return [];
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
