// Issue 32, finding 13 (verified, then fixed): a client of GET /v1/events that sends
// Last-Event-ID: 0 and never reads made the server buffer the workspace's whole history: every
// wake of the stream read and wrote another page of 500 events whatever the socket held. Here the
// stream writes to a socket that never drains: what is read from the store stops at one page once
// the buffer is full, and goes on after a drain.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { streamWorkspace } from './job-stream.ts';
import type { JobEvent, JobStore } from './jobs.store.ts';
import type { JobEventBus } from '../events/job-event-bus.ts';

const HISTORY = 20_000;
const PAGE = 500;

function event(id: number): JobEvent {
  return { id, jobId: `job_${id}`, seq: 1, event: 'job.updated', job: { id: `job_${id}`, label: 'x'.repeat(200) } } as unknown as JobEvent;
}

describe('GET /v1/events to a client that does not read', () => {
  it('reads no more of the history than the socket can hold, and goes on once it drains', async () => {
    let read = 0;
    const jobs = {
      prunedWorkspaceEventId: async () => 0,
      latestWorkspaceEventId: async () => HISTORY,
      workspaceEventsAfter: async (_ws: string, after: number) => {
        const page = Array.from({ length: Math.max(0, Math.min(PAGE, HISTORY - after)) }, (_, i) => event(after + i + 1));
        read += page.length;
        return page;
      },
    } as unknown as JobStore;
    let wake: (() => void) | null = null;
    const bus = { crossProcess: true, subscribeWorkspace: (_ws: string, fn: () => void) => ((wake = fn), () => undefined) } as unknown as JobEventBus;
    // A socket that takes 64 KiB and then holds every write (the client never reads).
    const held: (() => void)[] = [];
    const raw = Object.assign(new Writable({ highWaterMark: 64 * 1024, write: (_c, _e, cb) => void held.push(cb) }), { writeHead: () => undefined });
    const socket = { destroyed: false, setNoDelay: () => undefined };
    const reqRaw = Object.assign(new EventEmitter(), { socket });
    const req = { method: 'GET', headers: { 'last-event-id': '0' }, raw: reqRaw } as unknown as FastifyRequest;
    const reply = { hijack: () => undefined, getHeaders: () => ({}), raw } as unknown as FastifyReply;

    await streamWorkspace(req, reply, jobs, bus, 'ws_1');
    try {
      const settle = () => new Promise((r) => setImmediate(r));
      for (let i = 0; i < 50; i++) {
        (wake as unknown as () => void)();
        await settle();
      }
      assert.ok(read <= PAGE, `${read} events read for a client that reads nothing (the history is ${HISTORY})`);
      assert.ok(raw.writableLength < 2 * 64 * 1024 + 1024, `${raw.writableLength} bytes buffered`);
      // The client reads: the stream goes on from where it stopped.
      const before = read;
      while (held.length > 0) (held.shift() as () => void)();
      for (let i = 0; i < 5; i++) await settle();
      assert.ok(read > before, 'reading resumed after the drain');
    } finally {
      reqRaw.emit('close'); // the stream's timers end with it
    }
  });
});
