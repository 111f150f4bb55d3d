// Runs in a worker thread (transcript-analysis.ts): a stored transcript's analysis from its cues,
// as its upload makes it today (textAnalysisOf), and its summary without one.
import { parentPort, workerData } from 'node:worker_threads';
import type { Transcript } from '@rapport/analysis';
import { textAnalysisOf } from './transcript-text.ts';
import { summarize } from './media-summary.ts';
import type { StoredTextAnalysis } from './transcript-analysis.ts';

let answer: StoredTextAnalysis | { error: string };
try {
  const transcript = JSON.parse(workerData as string) as Transcript;
  answer = { analysisJson: textAnalysisOf(transcript).json, summaryJson: JSON.stringify(summarize('transcript', null, transcript)) };
} catch (err) {
  answer = { error: String(err) };
}
parentPort?.postMessage(answer);
