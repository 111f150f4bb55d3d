// Stage: resegmentation. Frame by frame, who speaks is decoded by a Viterbi pass (viterbi.ts)
// over each speaker's score: the log-likelihood ratio of the frame under the speaker's GMM (MAP-
// adapted from the recording's UBM on the speaker's current frames) against the UBM, plus the
// frame's F0 under the speaker's pitch Gaussian against the recording's. A change of speaker
// costs `switchPenalty`. Each pass re-estimates the models from the previous pass's labels.
import { adaptMeans, frameLlr } from './gmm-speakers.ts';
import { pitchGaussian, pitchLogLikelihood, pitchSums } from '../pitch.ts';
import { framesByLabel } from './speaker-frames.ts';
import { compactColumns, viterbiEmissions } from './viterbi.ts';
import { renumberByFirstSpeech } from './numbering.ts';
import type { RecordingModels } from './speaker-models.ts';
import type { GuidedSettings } from './settings.ts';

/** The current speakers of a recording, as the stages pass them on. */
export interface Labelling {
  /** Speaker per frame (-1: none), numbered 0..groups.length - 1. */
  frameSpeaker: Int16Array;
  /** Modelling frames per speaker. */
  groups: Int32Array[];
  /**
   * Per-frame scores of the last pass, frame-major, stride groups.length after the pass. One
   * buffer sized by the first pass's speakers and reused: for an hour it is the largest array.
   */
  emission: Float32Array;
}

/**
 * `passes` Viterbi passes from `lab.groups`; afterwards the speakers are renumbered in order of
 * first speech, those left with no frame are gone, and `lab` holds the new labels, groups and
 * scores.
 */
export function resegment(m: RecordingModels, lab: Labelling, passes: number, s: GuidedSettings): void {
  const { f, model, ubm, cep, align, pitchSt, filePitch } = m;
  const { frameSpeaker, emission } = lab;
  let k = lab.groups.length;
  for (let it = 0; it < passes; it++) {
    const means = lab.groups.map((fr) => adaptMeans(ubm, cep, align, fr));
    const pitchModels = lab.groups.map((fr) => pitchGaussian(pitchSums(pitchSt, fr)));
    emission.fill(0, 0, f.frames * k);
    for (let i = 0; i < f.frames; i++) {
      if (!model[i]) continue;
      const st = pitchSt[i]!;
      const fileLl = Number.isNaN(st) ? 0 : pitchLogLikelihood(st, filePitch);
      for (let x = 0; x < k; x++) {
        const pitchLl = Number.isNaN(st) ? 0 : pitchLogLikelihood(st, pitchModels[x]!) - fileLl;
        emission[i * k + x] = frameLlr(ubm, means[x]!, cep, align, i) + s.pitchStreamWeight * pitchLl;
      }
    }
    viterbiEmissions(emission, k, m.regions, s.switchPenalty, frameSpeaker);
    const order = renumberByFirstSpeech(frameSpeaker);
    compactColumns(emission, f.frames, k, order);
    k = order.size;
    lab.groups = framesByLabel(frameSpeaker, k, model);
  }
}
