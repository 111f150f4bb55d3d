// The analysis process's inside, started by analysis-process.ts with its nice value and,
// optionally, a compile cache directory as arguments; each message is the input of one media
// analysis, answered by progress reports and one result or one error. The parent sends the next
// one only after an answer. Every thread is set to that priority before the engine is loaded, so
// the engine, its garbage collector and the media decoder it starts all yield to the API. The
// process ends after an error (what the media did to it ends with it), and when its parent goes
// away: at once when the event loop sees the channel close, else at the next progress report
// (the engine's decoding loop can run for long without giving the event loop a turn). After a
// result it waits for the next input: the engine stays loaded and compiled (analysis-pool.ts).
//
// Loading the engine was 0.70-0.76 s of CPU of the 2.2 s an analysis of a 300 s recording took
// on the 2-core test host: Node strips the types of its 72 TypeScript modules and compiles them
// at every start. With a compile cache directory (compile-cache.ts), Node loads the stripped and
// compiled code from there instead (0.26-0.31 s). The engine is loaded at once, while the input
// is on its way, and what was compiled is written out before any media is read.
import module from 'node:module';
import type { OnnxEmbeddingModel, SegmentationModel } from '@rapport/analysis';
import type { ChildMessage, ChildStart } from './analysis-process.ts';
import { setOwnPriority } from './process-tree.ts';

setOwnPriority(Number(process.argv[2] ?? 10));
const cacheDir = process.argv[3];
if (cacheDir) module.enableCompileCache(cacheDir);
const engine = import('@rapport/analysis').then((mod) => {
  if (cacheDir) module.flushCompileCache();
  return mod;
});
// A failed load is reported by run(), once the input came.
engine.catch(() => undefined);
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

process.on('message', (start: ChildStart) => {
  void run(start).then(
    (ok) => {
      if (!ok) process.exit(0);
    },
    () => process.exit(1),
  );
});

/** The deployment's speaker embedding and segmentation networks, loaded once per process (the service checked them at start). */
let embedding: { path: string; model: OnnxEmbeddingModel } | null = null;
let segmentation: { path: string; model: SegmentationModel } | null = null;

/** Answers one input; false after an error. */
async function run(start: ChildStart): Promise<boolean> {
  const { analyzeMedia, loadOnnxEmbedding, loadSegmentationModel } = await engine;
  try {
    const path = start.speakerEmbeddingModel;
    if (path && embedding?.path !== path) embedding = { path, model: loadOnnxEmbedding(path) };
    const segPath = start.segmentationModel;
    if (segPath && segmentation?.path !== segPath) segmentation = { path: segPath, model: loadSegmentationModel(segPath) };
    const result = await analyzeMedia({
      ...(path && embedding ? { speakerEmbedding: embedding.model } : {}),
      ...(segPath && segmentation ? { segmentationModel: segmentation.model } : {}),
      path: start.path,
      transcript: start.transcript,
      ...(start.speakers ? { speakers: start.speakers } : {}),
      maxDurationSec: start.maxDurationSec,
      onProgress: (stage, fraction) => {
        if (process.ppid !== parent) process.exit(1); // adopted: the service died
        send({ type: 'progress', stage, fraction }).catch(() => undefined); // advisory
      },
    });
    await send({ type: 'result', result });
    return true;
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    await send({ type: 'error', code: typeof code === 'string' ? code : null, message: err instanceof Error ? err.message : String(err) });
    return false;
  }
}
