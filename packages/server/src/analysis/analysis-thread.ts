// Runs one media analysis in a worker thread with a heap limit (ANALYSIS_MEMORY_MB), so that the
// API's event loop stays free while it runs and WORKER_CONCURRENCY analyses use as many cores.
// The engine's own errors (media_unreadable, no_speech_detected) keep their code; a thread that
// crashes or runs out of memory rejects with a plain error, which the worker retries and then
// records as internal_error. An abort terminates the thread.
import { Worker } from 'node:worker_threads';
import type { AnalysisStage, MediaAnalysis, SpeakerCountHint, Transcript } from '@rapport/analysis';

const ENTRY = new URL('./analysis.thread.ts', import.meta.url);

export interface ThreadedAnalysisInput {
  path: string;
  transcript: Transcript | null;
  /** The user's speaker-count hints for this media, when any. */
  speakers?: SpeakerCountHint;
  maxDurationSec: number;
  memoryLimitMb: number;
  onProgress: (stage: AnalysisStage, fraction: number) => void;
  signal: AbortSignal;
}

type Message =
  | { type: 'progress'; stage: AnalysisStage; fraction: number }
  | { type: 'result'; result: MediaAnalysis }
  | { type: 'error'; code: string | null; message: string };

export function analyzeInThread(input: ThreadedAnalysisInput): Promise<MediaAnalysis> {
  return new Promise((resolve, reject) => {
    if (input.signal.aborted) return reject(input.signal.reason instanceof Error ? input.signal.reason : new Error('aborted'));
    const worker = new Worker(ENTRY, {
      workerData: { path: input.path, transcript: input.transcript, speakers: input.speakers, maxDurationSec: input.maxDurationSec },
      resourceLimits: { maxOldGenerationSizeMb: input.memoryLimitMb, maxYoungGenerationSizeMb: Math.min(64, Math.max(4, input.memoryLimitMb / 16)) },
      stdout: false,
      stderr: false,
    });
    let settled = false;
    const finish = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      input.signal.removeEventListener('abort', onAbort);
      fn();
      void worker.terminate();
    };
    const onAbort = (): void => finish(() => reject(input.signal.reason instanceof Error ? input.signal.reason : new Error('aborted')));
    input.signal.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (m: Message) => {
      if (m.type === 'progress') input.onProgress(m.stage, m.fraction);
      else if (m.type === 'result') finish(() => resolve(m.result));
      else finish(() => reject(Object.assign(new Error(m.message), m.code ? { code: m.code } : {})));
    });
    worker.on('error', (err: Error & { code?: string }) => {
      const why = err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `ran out of its ${input.memoryLimitMb} MB memory limit (ANALYSIS_MEMORY_MB)` : `crashed (${err.message})`;
      finish(() => reject(new Error(`The analysis ${why}.`)));
    });
    worker.on('exit', (code) => finish(() => reject(new Error(`The analysis thread exited (${code}) without a result.`))));
  });
}
