// Parsing an uploaded transcript off the API's event loop (issue 32, finding 1): reading, UTF-8
// decoding, parsing, and making the stored JSON and the summary run in a worker thread of their
// own (transcript-parse.worker.ts), which ends with its answer. Only that text and the summary
// cross back (transcript-text.ts), never the cues (at most MAX_TRANSCRIPT_CUES).
import { workerAnswer } from './worker-answer.ts';
import { TranscriptText } from './transcript-text.ts';

export interface ParseRequest {
  path: string;
  maxCues: number;
}

/** What crosses back from the worker: plain data, made a TranscriptText again on this side. */
type ParseAnswerOf<T> =
  | { transcript: T }
  | { error: 'not_utf8' | 'not_transcript' }
  | { error: 'too_many_cues'; cues: number }
  | { error: 'failed'; message: string };

export type ParseAnswer = ParseAnswerOf<ConstructorParameters<typeof TranscriptText>[0]>;

const WORKER = new URL('./transcript-parse.worker.ts', import.meta.url);

export async function parseTranscriptFile(path: string, maxCues: number): Promise<ParseAnswerOf<TranscriptText>> {
  const answer = await runWorker(path, maxCues);
  return 'transcript' in answer ? { transcript: new TranscriptText(answer.transcript) } : answer;
}

function runWorker(path: string, maxCues: number): Promise<ParseAnswer> {
  return workerAnswer<ParseAnswer>(WORKER, { path, maxCues } satisfies ParseRequest, 'the transcript parser');
}
