// An analysis engine for job tests whose media analysis is canned: every operation but
// analyzeMedia is the real engine's (selectors, aggregation, documents, speaker linking), and
// analyzeMedia answers a MediaAnalysis built in code from the speech time of each speaker, so
// that tests control how much each speaker says without generating audio for it.
import { computeSpeakerMetrics, ENGINE_VERSION, speakerCountWarnings, type MediaAnalysis, type SpeechSegment, type Turn } from '@rapport/analysis';
import { createEngine } from '../src/analysis/create-engine.ts';
import type { AnalysisEngine } from '../src/analysis/engine.ts';

/** A voiceprint unlike any other speaker's: one-hot in a 32-dimension space. */
function voiceprint(voice: number): number[] {
  return Array.from({ length: 32 }, (_, d) => (d === voice % 32 ? 1 : 0.001));
}

/**
 * An analysis whose speaker i speaks `speechSec[i]` seconds in turns of at most 4 s, the speakers
 * taking turns in order; `voices[i]` (default i) decides whose voice it is across media.
 */
export function cannedAnalysis(speechSec: number[], voices: number[] = speechSec.map((_, i) => i)): MediaAnalysis {
  const left = [...speechSec];
  const segments: SpeechSegment[] = [];
  let t = 0.5;
  while (left.some((x) => x > 1e-9)) {
    left.forEach((rest, speaker) => {
      if (rest <= 1e-9) return;
      const d = Math.min(4, rest);
      segments.push({ speaker, start: round3(t), end: round3(t + d) });
      left[speaker] = rest - d;
      t += d + 0.4;
    });
  }
  const durationSec = round3(t + 0.5);
  const turns: Turn[] = segments.map((s) => {
    const pitch = 30 + s.speaker * 6;
    return { speaker: s.speaker, start: s.start, end: s.end, pitchSt: pitch, loudnessDb: -26, rateSylPerSec: 4, initialPitchSt: pitch, finalPitchSt: pitch, initialLoudnessDb: -26, finalLoudnessDb: -26, interrupts: false, backchannel: false };
  });
  const acoustic = speechSec.map((s, speaker) => ({ speaker, pitchMedianSt: 30 + speaker * 6, pitchRangeSt: 6, pitchVariabilitySt: 2, loudnessMeanDb: -26, loudnessVariabilityDb: 4, syllables: Math.round(s * 4), phonationSec: s * 0.9, voicedSec: s * 0.6 }));
  const labels = speechSec.map(() => null);
  const metrics = computeSpeakerMetrics({ durationSec, segments, turns, acoustic, transcript: null, labels, overlapMeasured: false });
  return {
    version: 1,
    engineVersion: ENGINE_VERSION,
    durationSec,
    segments,
    speakers: speechSec.map((_, index) => ({
      index,
      speechSec: round3(segments.filter((s) => s.speaker === index).reduce((a, s) => a + s.end - s.start, 0)),
      firstSpeechSec: segments.find((s) => s.speaker === index)?.start ?? 0,
      label: null,
      voiceprint: voiceprint(voices[index] ?? index),
      metrics: metrics[index]!,
    })),
    turns,
    transcript: null,
    method: { vad: 'canned', diarization: 'canned', voiceprint: 'canned', realTimeFactor: null, overlapMeasured: false },
  };
}

/**
 * The real engine, but analyzeMedia answers `next()` (called once per analysis, in order), with
 * the speaker-count warnings analyze.ts would give it under the media's hints.
 */
export function cannedEngine(next: () => MediaAnalysis): AnalysisEngine {
  const real = createEngine();
  return {
    ...real,
    analyzeMedia: async (input) => {
      const a = next();
      const warnings = speakerCountWarnings(input.speakers, a.speakers.length);
      return warnings.length ? { ...a, warnings } : a;
    },
  };
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
