// The analysis process's inside: one media analysis, started by analysis-process.ts with its nice
// value as the only argument and its input as the first message. Every thread is set to that
// priority before the engine is loaded, so the engine, its garbage collector and the media
// decoder it starts all yield to the API. The process ends after its answer, and when its parent
// goes away: at once when the event loop sees the channel close, else at the next progress
// report (the engine's decoding loop can run for long without giving the event loop a turn).
import type { ChildMessage, ChildStart } from './analysis-process.ts';
import { setOwnPriority } from './process-tree.ts';

setOwnPriority(Number(process.argv[2] ?? 10));
// A Ctrl-C in a terminal reaches the whole process group; the service decides when this ends.
process.on('SIGINT', () => undefined);
// The parent is gone (killed, crashed): nobody is waiting for the answer.
process.once('disconnect', () => process.exit(1));
const parent = process.ppid;

const send = (m: ChildMessage): Promise<void> =>
  new Promise((resolve) => {
    if (!process.send) return resolve();
    process.send(m, undefined, undefined, () => resolve());
  });

process.once('message', (start: ChildStart) => {
  void run(start).then(
    () => process.exit(0),
    () => process.exit(1),
  );
});

async function run(start: ChildStart): Promise<void> {
  const { analyzeMedia } = await import('@rapport/analysis');
  try {
    const result = await analyzeMedia({
      path: start.path,
      transcript: start.transcript,
      ...(start.speakers ? { speakers: start.speakers } : {}),
      maxDurationSec: start.maxDurationSec,
      onProgress: (stage, fraction) => {
        if (process.ppid !== parent) process.exit(1); // adopted: the service died
        void send({ type: 'progress', stage, fraction });
      },
    });
    await send({ type: 'result', result });
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    await send({ type: 'error', code: typeof code === 'string' ? code : null, message: err instanceof Error ? err.message : String(err) });
  }
}
