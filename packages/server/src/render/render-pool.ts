// One worker thread that renders the diarization files and HTML reports (render-tasks.ts), so
// that their parsing and string building never hold the API's event loop (issue 41, finding 2).
// Started at the first task and kept (unref'd: it never keeps the process alive); tasks run one
// after another in it. A worker that dies fails the tasks it held, and the next task starts a
// new one.
import { Worker } from 'node:worker_threads';
import { ApiError } from '../errors.ts';
import type { RenderAnswer, RenderTask } from './render-tasks.ts';

const WORKER = new URL('./render.worker.ts', import.meta.url);

interface Pending {
  resolve: (body: Buffer) => void;
  reject: (err: Error) => void;
}

export class RenderPool {
  #worker: Worker | null = null;
  #next = 1;
  readonly #pending = new Map<number, Pending>();

  /** The task's text, as UTF-8 bytes (render.worker.ts). */
  run(task: RenderTask): Promise<Buffer> {
    const worker = this.#worker ?? this.#start();
    const id = this.#next++;
    return new Promise<Buffer>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      worker.postMessage({ id, task });
    });
  }

  #start(): Worker {
    const worker = new Worker(WORKER, { resourceLimits: { maxOldGenerationSizeMb: 1024 } });
    worker.unref();
    worker.on('message', ({ id, answer }: { id: number; answer: RenderAnswer }) => {
      const p = this.#pending.get(id);
      if (!p) return;
      this.#pending.delete(id);
      if ('body' in answer) p.resolve(Buffer.from(answer.body.buffer, answer.body.byteOffset, answer.body.byteLength));
      else if (answer.error.code === 'CONFLICT') p.reject(new ApiError('CONFLICT', answer.error.message));
      else p.reject(new Error(`render failed: ${answer.error.message}`));
    });
    const fail = (err: Error): void => {
      if (this.#worker === worker) this.#worker = null;
      for (const p of this.#pending.values()) p.reject(err);
      this.#pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the render worker ended (${code})`)));
    this.#worker = worker;
    return worker;
  }

  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = null;
    await worker?.terminate();
  }
}
