// Binds the server's AnalysisEngine interface to the @rapport/analysis library. The engine
// decodes non-WAV media with the ffmpeg binary that ships inside @ffmpeg-installer/ffmpeg (an
// npm package, so nothing is installed by hand).
import { createRequire } from 'node:module';
import {
  ENGINE_VERSION,
  aggregateMetrics,
  analyzeMedia,
  buildMatching,
  buildReport,
  linkSpeakers,
  parseTranscript,
  resolveSelector,
} from '@rapport/analysis';
import type { AnalysisEngine } from './engine.ts';

function ffmpegPath(): string | undefined {
  try {
    return (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path;
  } catch {
    return undefined; // the engine then tries `ffmpeg` on the PATH, and reports unreadable media if absent
  }
}

export function createEngine(): AnalysisEngine {
  const ffmpeg = ffmpegPath();
  return {
    version: ENGINE_VERSION,
    analyzeMedia: (input) =>
      analyzeMedia({
        path: input.path,
        transcript: input.transcript,
        ...(input.speakers ? { speakers: input.speakers } : {}),
        onProgress: input.onProgress,
        signal: input.signal,
        ...(ffmpeg ? { ffmpegPath: ffmpeg } : {}),
      }),
    linkSpeakers: (voiceprints, existing) => linkSpeakers(voiceprints, existing),
    resolveSelector: (media, selector, ctx) => resolveSelector(media, selector, ctx),
    aggregateMetrics: (items) => aggregateMetrics(items),
    buildMatching: (input) => buildMatching(input),
    buildReport: (input) => buildReport(input),
    parseTranscript: (text) => parseTranscript(text),
  };
}
