// The analysis thread's inside: one media analysis per thread, started by analysis-thread.ts.
// The thread has its own event loop and heap (capped by the parent's resourceLimits), so that a
// long analysis never holds up the API and a runaway one dies alone.
import { parentPort, workerData } from 'node:worker_threads';
import { analyzeMedia, type SpeakerCountHint, type Transcript } from '@rapport/analysis';

interface Input {
  path: string;
  transcript: Transcript | null;
  speakers?: SpeakerCountHint;
  maxDurationSec: number;
}

const port = parentPort;
if (!port) throw new Error('analysis.thread.ts runs as a worker thread');
const controller = new AbortController();
port.on('message', (m: { type: string }) => {
  if (m.type === 'abort') controller.abort(new Error('analysis aborted'));
});
const input = workerData as Input;
analyzeMedia({
  path: input.path,
  transcript: input.transcript,
  ...(input.speakers ? { speakers: input.speakers } : {}),
  maxDurationSec: input.maxDurationSec,
  signal: controller.signal,
  onProgress: (stage, fraction) => port.postMessage({ type: 'progress', stage, fraction }),
}).then(
  (result) => port.postMessage({ type: 'result', result }),
  (err: unknown) => port.postMessage({ type: 'error', code: (err as { code?: unknown }).code ?? null, message: err instanceof Error ? err.message : String(err) }),
);
