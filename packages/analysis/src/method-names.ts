// The names `method.diarization` starts with, in one place: analyses are told apart by them
// (whose speakers are a transcript's names, whose overlap was measured), so the writer and every
// reader share these constants instead of spelling the words again.

/** The start of a transcript-guided analysis's diarization method (analyze.ts): its speakers are the transcript's names. */
export const GUIDED_METHOD_PREFIX = 'transcript-guided';

/** method.diarization of a transcript analysed on its own (transcript-analysis.ts): where every speaker and time came from. */
export const CUES_ONLY_METHOD = "from the transcript's cues only (no audio): speakers by the cues' names, speech time, turns, gaps and pauses from the cue times";

/** Whether an analysis's speakers are a transcript's names (guiding the audio, or on its own). */
export function speakersAreTranscriptNames(method: { diarization: string }): boolean {
  return method.diarization.startsWith(GUIDED_METHOD_PREFIX) || method.diarization.startsWith(CUES_ONLY_METHOD);
}
