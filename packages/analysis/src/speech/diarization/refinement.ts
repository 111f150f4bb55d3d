// Stage: refinement, once the count is settled (speaker-count.ts); the number of speakers does
// not change here.
// 1. Until no piece moves (at most reassignRounds rounds): pieces of speech move between speakers
//    when their own speaker's model, re-estimated without them, explains them worse than
//    another's and the channel-robust views of the voice agree (reassign.ts); then last
//    resegmentation passes with Z-normed scores and cheaper speaker changes at pauses (fast
//    exchanges that the speech detector bridged into one region).
// 2. In a recording diarized in one stage (not inside a long recording's chunks), pieces move to
//    the speaker whose mean window embedding they lie clearly nearest (embedding-refine.ts): the
//    likelihood models of step 1 keep a second voice in a cluster that has adapted to it. Inside
//    chunks it made one held-out file's chunk linking worse at every seed phase tried.
import { bridgedPauses, framesByLabel } from './speaker-frames.ts';
import { reassignPieces, type ReassignContext } from './reassign.ts';
import { refineByEmbedding } from './embedding-refine.ts';
import { resegment, type Labelling } from './resegmentation.ts';
import { VETO_PRINT } from './speaker-count.ts';
import type { RecordingModels } from './speaker-models.ts';
import type { DiarizationSettings } from './settings.ts';

export function refineSpeakers(m: RecordingModels, lab: Labelling, s: DiarizationSettings, wholeRecording: boolean): void {
  const r = s.resegmentation;
  if (r.pauseSwitchPenalty >= r.switchPenalty) return;
  const pauses = { frames: bridgedPauses(m.regions, m.model, Math.round(r.pauseMinSec * 100)), penalty: r.pauseSwitchPenalty };
  const context: ReassignContext = {
    f: m.f,
    regions: m.regions,
    model: m.model,
    ubm: m.ubm,
    cep: m.cep,
    dims: m.dims,
    align: m.align,
    pitchSt: m.pitchSt,
    filePitch: m.filePitch,
    pitchWeight: r.pitchStreamWeight,
    pauses: pauses.frames,
    print: VETO_PRINT,
    embedding: m.embedding,
  };
  const rules = { ...s.count, ...s.reassignment };
  let rounds = s.reassignment.reassignRounds;
  const reassign = (): boolean => {
    if (rounds <= 0) return false;
    rounds--;
    if (!reassignPieces(context, lab.frameSpeaker, lab.groups.length, rules)) return false;
    lab.groups = framesByLabel(lab.frameSpeaker, lab.groups.length, m.model);
    return true;
  };
  reassign();
  do resegment(m, lab, r.lastPasses, r, pauses);
  while (reassign());
  if (wholeRecording && m.embedding) {
    // The last passes left the speakers numbered 0..groups.length - 1.
    const rules = { ...s.refinement, reassignMaxShare: s.reassignment.reassignMaxShare };
    refineByEmbedding({ regions: m.regions, model: m.model, cep: m.cep, dims: m.dims, pauses: pauses.frames, embedding: m.embedding }, lab.frameSpeaker, lab.groups.length, rules);
  }
}
