// Runs queued tasks with bounded concurrency. Each claimed task holds a lease that is renewed
// while its handler works; if the renewal fails (the task was cancelled, or another worker took
// it over after a stall) the handler's signal aborts. Unexpected errors are retried with
// exponential backoff up to the task's max attempts, then handed to the handler's giveUp.
import type { QueueStore, Task, TaskKind } from './queue.store.ts';
import { randomToken } from '../ids.ts';

export type TaskOutcome = { kind: 'done' } | { kind: 'wait'; ms: number };

export interface TaskContext {
  signal: AbortSignal;
}

export interface TaskHandler {
  run(task: Task, ctx: TaskContext): Promise<TaskOutcome>;
  /** Called once when the task will not be tried again; must record the failure durably. */
  giveUp(task: Task, error: unknown): Promise<void>;
}

export interface WorkerOptions {
  concurrency: number;
  leaseMs: number;
  pollMs?: number;
  log?: (msg: string, extra?: Record<string, unknown>) => void;
}

export class Worker {
  readonly owner = `worker-${process.pid}-${randomToken(8)}`;
  private readonly queue: QueueStore;
  private readonly handlers: Record<TaskKind, TaskHandler>;
  private readonly opts: WorkerOptions;
  private running = false;
  private active = new Set<Promise<void>>();
  private wakeUp: (() => void) | null = null;
  private loop: Promise<void> | null = null;
  private readonly controllers = new Set<AbortController>();

  constructor(queue: QueueStore, handlers: Record<TaskKind, TaskHandler>, opts: WorkerOptions) {
    this.queue = queue;
    this.handlers = handlers;
    this.opts = opts;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Called when a task was queued in this process, so it starts without waiting for a poll. */
  wake = (): void => {
    this.wakeUp?.();
  };

  private async run(): Promise<void> {
    while (this.running) {
      while (this.running && this.active.size < this.opts.concurrency) {
        let task: Task | null = null;
        try {
          task = await this.queue.claim(this.owner, this.opts.leaseMs);
        } catch (err) {
          this.opts.log?.('claim failed', { err: String(err) });
        }
        if (!task) break;
        const p = this.execute(task).finally(() => {
          this.active.delete(p);
          this.wake();
        });
        this.active.add(p);
      }
      if (!this.running) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.opts.pollMs ?? 250);
        this.wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeUp = null;
    }
  }

  private async execute(task: Task): Promise<void> {
    const handler = this.handlers[task.kind];
    const controller = new AbortController();
    this.controllers.add(controller);
    const renew = setInterval(() => {
      this.queue.renew(task.id, this.owner, this.opts.leaseMs).then(
        (ok) => { if (!ok) controller.abort(new Error('lease lost')); },
        () => undefined,
      );
    }, Math.max(200, Math.floor(this.opts.leaseMs / 3)));
    try {
      if (task.attempts > task.maxAttempts) {
        await handler.giveUp(task, new Error(`gave up after ${task.maxAttempts} attempts (the worker stopped while running it)`));
        await this.queue.complete(task.id, this.owner);
        return;
      }
      const outcome = await handler.run(task, { signal: controller.signal });
      if (outcome.kind === 'done') await this.queue.complete(task.id, this.owner);
      else await this.queue.reschedule(task.id, this.owner, Date.now() + outcome.ms, null, false);
    } catch (err) {
      if (controller.signal.aborted && !this.running) return; // shutting down: the lease runs out and another worker retries
      if (task.attempts < task.maxAttempts) {
        const delay = 1000 * 2 ** (task.attempts - 1);
        this.opts.log?.('task failed, will retry', { task: task.id, kind: task.kind, attempt: task.attempts, err: String(err) });
        await this.queue.reschedule(task.id, this.owner, Date.now() + delay, String(err), true).catch(() => undefined);
      } else {
        await handler.giveUp(task, err).catch((e: unknown) => this.opts.log?.('giveUp failed', { err: String(e) }));
        await this.queue.complete(task.id, this.owner).catch(() => undefined);
      }
    } finally {
      clearInterval(renew);
      this.controllers.delete(controller);
    }
  }

  /** Stops claiming, aborts running handlers and waits for them; safe to call twice. */
  async close(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.wake();
    for (const c of this.controllers) c.abort(new Error('worker closing'));
    await this.loop;
    await Promise.allSettled([...this.active]);
  }
}
