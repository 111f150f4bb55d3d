// Pub/sub of job events, feeding the SSE streams. Events are durable in the store first; the bus
// only wakes streams up, so a missed publish costs latency, never data (streams re-read the
// store from their last sequence number). The embedded store's bus reaches this process only;
// on PostgreSQL, job-event-bus.pg.ts (LISTEN/NOTIFY) or, with REDIS_URL, job-event-bus.redis.ts
// carries every process's events to every other.
import { EventEmitter } from 'node:events';
import type { JobEvent } from '../jobs/jobs.store.ts';

/** Told of an event, or of `null`: events may have been missed (a lost connection), read the store. */
export type JobEventListener = (e: JobEvent | null) => void;

export interface JobEventBus {
  /** Whether events of other processes (a separate worker) arrive too; if not, streams also poll the store. */
  readonly crossProcess: boolean;
  publish(workspaceId: string, event: JobEvent): void;
  subscribeJob(jobId: string, fn: JobEventListener): () => void;
  subscribeWorkspace(workspaceId: string, fn: JobEventListener): () => void;
  close?(): Promise<void>;
}

export class MemoryJobEventBus implements JobEventBus {
  readonly crossProcess = false;
  private readonly emitter = new EventEmitter();
  constructor() {
    this.emitter.setMaxListeners(0);
  }
  publish(workspaceId: string, event: JobEvent): void {
    this.emitter.emit(`job:${event.jobId}`, event);
    this.emitter.emit(`ws:${workspaceId}`, event);
  }
  subscribeJob(jobId: string, fn: JobEventListener): () => void {
    return this.on(`job:${jobId}`, fn);
  }
  subscribeWorkspace(workspaceId: string, fn: JobEventListener): () => void {
    return this.on(`ws:${workspaceId}`, fn);
  }
  /** Whether anything subscribes (an event nobody here listens to need not be decoded). */
  get listening(): boolean {
    return this.emitter.listenerCount('all') > 0;
  }
  /** Tells every subscriber to read the store (events may have been missed). */
  wakeAll(): void {
    this.emitter.emit('all', null);
  }
  private on(name: string, fn: JobEventListener): () => void {
    this.emitter.on(name, fn);
    this.emitter.on('all', fn);
    return () => {
      this.emitter.off(name, fn);
      this.emitter.off('all', fn);
    };
  }
}
