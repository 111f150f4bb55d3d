// Parsing an uploaded transcript off the API's event loop (issue 32, finding 1): reading, UTF-8
// decoding and parsing run in a worker thread of their own (transcript-parse.worker.ts), which
// ends with its answer. Only the parsed cues cross back, and there are at most MAX_TRANSCRIPT_CUES.
import { Worker } from 'node:worker_threads';
import type { Transcript } from '@rapport/analysis';

export interface ParseRequest {
  path: string;
  maxCues: number;
}

export type ParseAnswer =
  | { transcript: Transcript }
  | { error: 'not_utf8' | 'not_transcript' }
  | { error: 'too_many_cues'; cues: number }
  | { error: 'failed'; message: string };

const WORKER = new URL('./transcript-parse.worker.ts', import.meta.url);

export function parseTranscriptFile(path: string, maxCues: number): Promise<ParseAnswer> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { workerData: { path, maxCues } satisfies ParseRequest, resourceLimits: { maxOldGenerationSizeMb: 512 } });
    let answered = false;
    worker.once('message', (answer: ParseAnswer) => {
      answered = true;
      resolve(answer);
      worker.terminate().catch(() => undefined);
    });
    worker.once('error', (err) => {
      if (!answered) reject(err);
    });
    worker.once('exit', (code) => {
      if (!answered) reject(new Error(`the transcript parser ended (${code}) without an answer`));
    });
  });
}
