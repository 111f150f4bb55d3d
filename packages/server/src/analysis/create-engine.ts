// Binds the server's AnalysisEngine interface to the @rapport/analysis library. The engine
// decodes non-WAV media in its media sandbox (FFmpeg compiled to WebAssembly, from the npm
// package @ffmpeg/core, so nothing is installed by hand).
import {
  ENGINE_VERSION,
  aggregateMetrics,
  buildMatching,
  buildReport,
  linkSpeakers,
  parseTranscript,
  resolveSelector,
} from '@rapport/analysis';
import type { AnalysisEngine, EngineOptions } from './engine.ts';
import { ensureCompileCacheDir } from '../compile-cache.ts';
import { AnalysisProcessPool } from './analysis-pool.ts';

export function createEngine(options: EngineOptions = {}): AnalysisEngine {
  const dir = options.compileCacheDir ? ensureCompileCacheDir(options.compileCacheDir) : null;
  const cache = {
    ...(dir ? { compileCacheDir: dir } : {}),
    ...(options.speakerEmbeddingModel ? { speakerEmbeddingModel: options.speakerEmbeddingModel } : {}),
    ...(options.segmentationModel ? { segmentationModel: options.segmentationModel } : {}),
  };
  const pool = new AnalysisProcessPool({ reuse: options.processReuse ?? 1, maxIdle: options.idleProcesses ?? 1 });
  return {
    version: ENGINE_VERSION,
    // In a child process at a lower priority with its own memory limit: the API keeps its cores.
    analyzeMedia: (input) => pool.analyze({ ...input, ...cache }),
    close: () => pool.close(),
    linkSpeakers: (voiceprints, existing) => linkSpeakers(voiceprints, existing),
    resolveSelector: (media, selector, ctx) => resolveSelector(media, selector, ctx),
    aggregateMetrics: (items) => aggregateMetrics(items),
    buildMatching: (input) => buildMatching(input),
    buildReport: (input) => buildReport(input),
    parseTranscript: (text) => parseTranscript(text),
  };
}
