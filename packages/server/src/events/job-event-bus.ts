// In-process pub/sub of job events, feeding the SSE streams. Events are durable in the store
// first; the bus only wakes streams up, so a missed publish costs latency, never data (streams
// re-read the store from their last sequence number).
import { EventEmitter } from 'node:events';
import type { JobEvent } from '../jobs/jobs.store.ts';

export interface JobEventBus {
  publish(workspaceId: string, event: JobEvent): void;
  subscribeJob(jobId: string, fn: (e: JobEvent) => void): () => void;
  subscribeWorkspace(workspaceId: string, fn: (e: JobEvent) => void): () => void;
}

export class MemoryJobEventBus implements JobEventBus {
  private readonly emitter = new EventEmitter();
  constructor() {
    this.emitter.setMaxListeners(0);
  }
  publish(workspaceId: string, event: JobEvent): void {
    this.emitter.emit(`job:${event.jobId}`, event);
    this.emitter.emit(`ws:${workspaceId}`, event);
  }
  subscribeJob(jobId: string, fn: (e: JobEvent) => void): () => void {
    this.emitter.on(`job:${jobId}`, fn);
    return () => this.emitter.off(`job:${jobId}`, fn);
  }
  subscribeWorkspace(workspaceId: string, fn: (e: JobEvent) => void): () => void {
    this.emitter.on(`ws:${workspaceId}`, fn);
    return () => this.emitter.off(`ws:${workspaceId}`, fn);
  }
}
