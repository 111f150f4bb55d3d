// How much speech a voice needs before anything is said about it (decisions §16). A speaker with
// less is still in the diarization, but creates no person of its own, is not offered for
// matching, and a job that resolves to it fails with `not_enough_speech`. Every part of the
// service reads this one constant; none writes the figure again.

/**
 * Seconds of speech below which a speaker's voice is not judged (no entity of its own, no
 * matching, `enough: false`). Measured on the real-voice folds (issue 31, docs/speech-validation.md,
 * "Speaker-count hints, enough speech"): the shipped window embedding tells an unheard voice from
 * another at an equal error rate of 12.4 % from 1 s, 9.2 % from 1.5 s (worst fold 10.2 %), 5.5 %
 * from 3 s (worst 6.1 %) and 4.0 % from 5 s; 3 s is the shortest length under 10 % in every fold.
 */
export const MIN_SPEECH_SEC_TO_JUDGE = 3;

/** Whether `speechSec` seconds of speech are enough to judge a voice. */
export function enoughSpeech(speechSec: number): boolean {
  return speechSec >= MIN_SPEECH_SEC_TO_JUDGE;
}
