// What two speakers did to each other in the conversations they share: who answered whom and how
// fast (floor-transfer offsets, Stivers et al. 2009), who interrupted whom, and how the floor was
// shared. Counts only exchanges between the two (a third speaker's turns in between break them).
import type { SpeechSegment, Turn } from '../types.ts';
import { floorTransfers, interruptions } from './speaker-metrics.ts';
import { median, totalLength, unionIntervals } from './stats.ts';

export interface PairConversation {
  id: string;
  durationSec: number;
  segments: readonly SpeechSegment[];
  turns: readonly Turn[];
  /** Whether the track shows overlapped speech (see overlapMeasured); interruptions need it. */
  overlapMeasured: boolean;
  /** Speaker indices of the target (a) and the member (b) in this conversation. */
  a: number;
  b: number;
}

export interface PairInteraction {
  conversations: number;
  /** Speech seconds of each in the shared conversations. */
  speechA: number;
  speechB: number;
  turnsA: number;
  turnsB: number;
  /** Floor transfers from b to a (a answering b), and their median gap in seconds. */
  responsesA: number;
  medianGapA: number | null;
  responsesB: number;
  medianGapB: number | null;
  /** Interruptions made by a of b, and by b of a, in the conversations that show overlap; null when none does. */
  interruptionsA: number | null;
  interruptionsB: number | null;
  /** Speech seconds of each in those conversations (the interruption rate's base). */
  overlapSpeechA: number;
  overlapSpeechB: number;
}

export function computePairInteraction(conversations: readonly PairConversation[]): PairInteraction {
  const gapsA: number[] = [];
  const gapsB: number[] = [];
  let speechA = 0;
  let speechB = 0;
  let turnsA = 0;
  let turnsB = 0;
  let interruptionsA = 0;
  let interruptionsB = 0;
  let overlapSpeechA = 0;
  let overlapSpeechB = 0;
  let measured = false;
  for (const c of conversations) {
    const a = totalLength(unionIntervals(c.segments.filter((s) => s.speaker === c.a)));
    const b = totalLength(unionIntervals(c.segments.filter((s) => s.speaker === c.b)));
    speechA += a;
    speechB += b;
    turnsA += c.turns.filter((t) => t.speaker === c.a && !t.backchannel).length;
    turnsB += c.turns.filter((t) => t.speaker === c.b && !t.backchannel).length;
    for (const x of floorTransfers(c.turns)) {
      if (x.from === c.b && x.to === c.a) gapsA.push(x.gapSec);
      if (x.from === c.a && x.to === c.b) gapsB.push(x.gapSec);
    }
    if (!c.overlapMeasured) continue;
    measured = true;
    overlapSpeechA += a;
    overlapSpeechB += b;
    for (const x of interruptions(c.turns)) {
      if (x.by === c.a && x.of === c.b) interruptionsA += 1;
      if (x.by === c.b && x.of === c.a) interruptionsB += 1;
    }
  }
  return {
    conversations: conversations.length,
    speechA,
    speechB,
    turnsA,
    turnsB,
    responsesA: gapsA.length,
    medianGapA: median(gapsA),
    responsesB: gapsB.length,
    medianGapB: median(gapsB),
    interruptionsA: measured ? interruptionsA : null,
    interruptionsB: measured ? interruptionsB : null,
    overlapSpeechA,
    overlapSpeechB,
  };
}
