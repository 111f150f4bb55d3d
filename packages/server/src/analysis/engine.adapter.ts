// Binds the server's AnalysisEngine interface to the @rapport/analysis library. The engine
// decodes non-WAV media in its media sandbox (FFmpeg compiled to WebAssembly, from the npm
// package @ffmpeg/core, so nothing is installed by hand).
import {
  aggregateMetrics,
  analyzeMedia,
  buildMatching,
  buildReport,
  linkSpeakers,
  parseTranscript,
  resolveSelector,
} from '@rapport/analysis';
import type { AnalysisEngine } from './engine.ts';

export function createEngine(): AnalysisEngine {
  return {
    analyzeMedia: (input) =>
      analyzeMedia({
        path: input.path,
        transcript: input.transcript,
        onProgress: input.onProgress,
        signal: input.signal,
        maxDurationSec: input.maxDurationSec,
      }),
    linkSpeakers: (voiceprints, existing) => linkSpeakers(voiceprints, existing),
    resolveSelector: (media, selector, ctx) => resolveSelector(media, selector, ctx),
    aggregateMetrics: (items) => aggregateMetrics(items),
    buildMatching: (input) => buildMatching(input),
    buildReport: (input) => buildReport(input),
    parseTranscript: (text) => parseTranscript(text),
  };
}
