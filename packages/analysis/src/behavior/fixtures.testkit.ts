// Test fixtures built in code: hand-made turns and synthetic conversations turned into real
// MediaAnalysis objects through the engine's own behavior stage. Used by tests only.
import type { AcousticStats, MediaAnalysis, SpeechSegment, Transcript, Turn } from '../types.ts';
import { alignTranscript } from '../language/align.ts';
import { computeSpeakerMetrics } from './speaker-metrics.ts';
import { seededRandom } from './stats.ts';

export function turn(speaker: number, start: number, end: number, extra: Partial<Turn> = {}): Turn {
  const pitch = extra.pitchSt ?? 30 + speaker * 8;
  const loud = extra.loudnessDb ?? -26;
  return {
    speaker,
    start,
    end,
    pitchSt: pitch,
    loudnessDb: loud,
    rateSylPerSec: 4,
    initialPitchSt: pitch,
    finalPitchSt: pitch,
    initialLoudnessDb: loud,
    finalLoudnessDb: loud,
    interrupts: false,
    backchannel: false,
    ...extra,
  };
}

export interface MediaFixture {
  durationSec: number;
  turns: Turn[];
  /** Speech segments; by default one per turn. */
  segments?: SpeechSegment[];
  acoustic?: AcousticStats[];
  transcript?: Transcript | null;
  /**
   * Whether the track can show overlapped speech (analyze.ts decides it from the transcript's cues);
   * false makes interruptions, backchannels and overlap "not measured". Default: as computeSpeakerMetrics.
   */
  overlapMeasured?: boolean;
}

export function acousticFor(speaker: number, extra: Partial<AcousticStats> = {}): AcousticStats {
  return {
    speaker,
    pitchMedianSt: 30 + speaker * 8,
    pitchRangeSt: 6,
    pitchVariabilitySt: 2,
    loudnessMeanDb: -26,
    loudnessVariabilityDb: 4,
    syllables: 0,
    phonationSec: 0,
    voicedSec: 0,
    ...extra,
  };
}

/** A MediaAnalysis whose speakers and metrics come from the real behavior stage. */
export function makeMedia(f: MediaFixture): MediaAnalysis {
  const segments = f.segments ?? f.turns.map((t) => ({ speaker: t.speaker, start: t.start, end: t.end }));
  const n = segments.reduce((m, s) => Math.max(m, s.speaker + 1), 0);
  const acoustic = f.acoustic ?? Array.from({ length: n }, (_, i) => acousticFor(i));
  const transcript = f.transcript ?? null;
  const labels = transcript ? alignTranscript(segments, transcript).labels : Array.from({ length: n }, () => null);
  const metrics = computeSpeakerMetrics({ durationSec: f.durationSec, segments, turns: f.turns, acoustic, transcript, labels, ...(f.overlapMeasured === undefined ? {} : { overlapMeasured: f.overlapMeasured }) });
  return {
    version: 1,
    durationSec: f.durationSec,
    segments,
    speakers: metrics.map((m, index) => ({
      index,
      speechSec: m.speechSec,
      firstSpeechSec: segments.filter((s) => s.speaker === index).reduce((a, s) => Math.min(a, s.start), Infinity),
      label: labels[index] ?? null,
      voiceprint: [index, 1],
      metrics: m,
    })),
    turns: f.turns,
    transcript,
    method: { vad: 'fixture', diarization: 'fixture', voiceprint: 'fixture', realTimeFactor: null, ...(f.overlapMeasured === undefined ? {} : { overlapMeasured: f.overlapMeasured }) },
  };
}

/**
 * A synthetic two-speaker conversation of alternating turns. With `entrained`, each turn's pitch,
 * loudness and rate follow the partner's previous turn (plus noise) and the two drift together;
 * otherwise each speaker draws values independently around their own mean.
 */
export function conversation(seed: number, exchanges: number, entrained: boolean): MediaFixture {
  const random = seededRandom(seed);
  const noise = (scale: number): number => (random() - 0.5) * 2 * scale;
  const base = [
    { pitch: 28, loud: -24, rate: 4 },
    { pitch: 36, loud: -28, rate: 5 },
  ];
  const turns: Turn[] = [];
  let t = 0.5;
  let prev: { pitch: number; loud: number; rate: number } | null = null;
  for (let k = 0; k < exchanges; k += 1) {
    const speaker = k % 2;
    const own = base[speaker] ?? { pitch: 30, loud: -26, rate: 4 };
    let v: { pitch: number; loud: number; rate: number };
    if (entrained && prev) {
      // Keep the speaker's own level but follow the partner's last move closely.
      v = { pitch: prev.pitch + noise(0.3), loud: prev.loud + noise(0.3), rate: prev.rate + noise(0.05) };
    } else {
      v = { pitch: own.pitch + noise(4), loud: own.loud + noise(4), rate: own.rate + noise(1) };
    }
    const duration = 2 + random() * 3;
    turns.push(turn(speaker, t, t + duration, {
      pitchSt: v.pitch, initialPitchSt: v.pitch, finalPitchSt: v.pitch,
      loudnessDb: v.loud, initialLoudnessDb: v.loud, finalLoudnessDb: v.loud, rateSylPerSec: v.rate,
    }));
    prev = entrained && prev ? v : { ...v };
    t += duration + 0.2 + random() * 0.4;
  }
  return { durationSec: t + 1, turns };
}
