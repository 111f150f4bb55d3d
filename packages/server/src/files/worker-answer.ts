// One task in a worker thread of its own that ends with its answer: the transcript parser
// (transcript-parse.ts) and the analysis a legacy transcript row owes (transcript-analysis.ts)
// run so, off the API's event loop, each holding at most one transcript.
import { Worker } from 'node:worker_threads';

/** The first message of the worker at `url` started with `workerData`; `what` names it in the error when it ends without one. */
export function workerAnswer<T>(url: URL, workerData: unknown, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(url, { workerData, resourceLimits: { maxOldGenerationSizeMb: 512 } });
    let answered = false;
    worker.once('message', (answer: T) => {
      answered = true;
      resolve(answer);
      worker.terminate().catch(() => undefined);
    });
    worker.once('error', (err) => {
      if (!answered) reject(err);
    });
    worker.once('exit', (code) => {
      if (!answered) reject(new Error(`${what} ended (${code}) without an answer`));
    });
  });
}
