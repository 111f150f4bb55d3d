// How much speech a voice needs before anything is said about it (decisions §16). A speaker with
// less is still in the diarization, but creates no person of its own, is not offered for
// matching, and a job that resolves to it fails with `not_enough_speech`. Every part of the
// service reads this one constant; none writes the figure again.

/**
 * Seconds of speech below which a speaker's voice is not judged (no entity of its own, no
 * matching, `enough: false`). Validated in docs/analysis-speech.md (issue 31).
 */
export const MIN_SPEECH_SEC_TO_JUDGE = 3;

/** Whether `speechSec` seconds of speech are enough to judge a voice. */
export function enoughSpeech(speechSec: number): boolean {
  return speechSec >= MIN_SPEECH_SEC_TO_JUDGE;
}
