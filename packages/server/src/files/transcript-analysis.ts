// The analysis of a transcript stored on its own before transcripts were analysed from their cues
// (decisions §19). Such a row has no analysis, and every read of it made one from its cues on the
// API's event loop (analyzeTranscript: about half a second of CPU for 20,000 cues), again at each
// get, export, metrics request and job. The store now makes it once, here, in a worker thread of
// its own that ends with its answer (as transcript-parse.ts), and keeps it in the row.
import { workerAnswer } from './worker-answer.ts';
import type { Sql } from '../store/sql.ts';
import { owesTextAnalysis, type MediaRow } from './media-rows.ts';

/** What the store writes into such a row: the analysis, and the summary the row showed without one. */
export interface StoredTextAnalysis {
  analysisJson: string;
  /** summarize('transcript', null, transcript): kept for a row that has no summary yet, so that its resource stays as it was. */
  summaryJson: string;
}

/** Makes them from the row's transcript JSON. */
export type TranscriptAnalyser = (transcriptJson: string) => Promise<StoredTextAnalysis>;

type Answer = StoredTextAnalysis | { error: string };

const WORKER = new URL('./transcript-analysis.worker.ts', import.meta.url);

/** The analyser of the service: only the JSON texts cross the thread boundary, never the cues. */
export const analyseInWorker: TranscriptAnalyser = async (transcriptJson) => {
  const answer = await workerAnswer<Answer>(WORKER, transcriptJson, 'the transcript analysis');
  if ('error' in answer) throw new Error(`the transcript analysis failed: ${answer.error}`);
  return answer;
};

/**
 * The analyses rows owe (owesTextAnalysis), made once and stored: later reads, in any process,
 * read the row as they read an uploaded transcript's. Stored rather than remembered in memory:
 * one analysis for all processes and restarts, nothing held here, and the stored JSON is what an
 * upload stores. The summary and engine version stay as they were (a row without a summary gets
 * the one it showed), so its resource does not change, and the write is no numbered change:
 * nothing a stream shows changed. A row changed since it was read (its change number moved) is
 * not written; that read still answers the analysis of the row it read.
 */
export class OwedTextAnalyses {
  readonly #db: Sql;
  readonly #analyse: TranscriptAnalyser;
  /** By media id and change number: concurrent reads of one row wait for one analysis. */
  readonly #making = new Map<string, Promise<StoredTextAnalysis>>();
  /** One at a time: each is a worker thread holding a transcript of up to 20,000 cues. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(db: Sql, analyse: TranscriptAnalyser) {
    this.#db = db;
    this.#analyse = analyse;
  }

  /** The row as read, with the analysis it owes; any other row as it is. */
  async of(r: MediaRow): Promise<MediaRow> {
    if (!owesTextAnalysis(r)) return r;
    const key = `${r.id}:${r.changed_seq}`;
    let made = this.#making.get(key);
    if (!made) {
      const run = this.#queue.then(async () => {
        const text = await this.#analyse(r.transcript_json as string);
        await this.#db.run(
          `UPDATE media SET analysis_json = ?, summary_json = COALESCE(summary_json, ?)
           WHERE id = ? AND changed_seq = ? AND analysis_json IS NULL AND kind = 'transcript' AND analysis_status = 'ready'`,
          text.analysisJson, text.summaryJson, r.id, r.changed_seq,
        );
        return text;
      });
      this.#queue = run.catch(() => undefined);
      made = run.finally(() => this.#making.delete(key));
      this.#making.set(key, made);
    }
    const text = await made;
    return { ...r, analysis_json: text.analysisJson, summary_json: r.summary_json ?? text.summaryJson };
  }
}
