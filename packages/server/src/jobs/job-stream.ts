// Server-sent events of decisions §6: `retry: 2000` and the current state at once, then every
// new event with its per-job sequence number as `id:`, a `: ping` comment every 15 s, resume
// after `Last-Event-ID`, and the stream closes after the terminal event. Events are read from
// the store (durable); the bus only says when to look.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { JobEvent, JobStore } from './jobs.store.ts';
import type { JobEventBus } from '../events/job-event-bus.ts';
import type { Job } from './jobs.schemas.ts';

export const HEARTBEAT_MS = 15_000;
/**
 * The embedded store's bus only carries events of this process; with ROLE=api and a separate
 * worker the events arrive through the store, so streams also look there on this interval. A
 * cross-process bus (PostgreSQL) carries every process's events: no polling then.
 */
export const STORE_POLL_MS = 1_000;

function frame(id: number, event: string, data: unknown): string {
  return `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

function eventName(job: Job): JobEvent['event'] {
  return job.status === 'succeeded' ? 'job.succeeded' : job.status === 'failed' ? 'job.failed' : 'job.updated';
}

/** Writes the stream's head; false for a HEAD request, which ends there (no stream is held open for it). */
function openStream(req: FastifyRequest, reply: FastifyReply): boolean {
  reply.hijack();
  const headers: Record<string, string | number | string[]> = {};
  for (const [k, v] of Object.entries(reply.getHeaders())) if (v !== undefined) headers[k] = v;
  reply.raw.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  if (req.method === 'HEAD') {
    reply.raw.end();
    return false;
  }
  reply.raw.write('retry: 2000\n\n');
  req.raw.socket.setNoDelay(true);
  return true;
}

export function lastEventId(req: FastifyRequest): number | null {
  const raw = req.headers['last-event-id'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || !/^\d{1,15}$/.test(value.trim())) return null;
  return Number(value.trim());
}

export async function streamJob(req: FastifyRequest, reply: FastifyReply, jobs: JobStore, bus: JobEventBus, job: Job): Promise<void> {
  if (!openStream(req, reply)) return;
  let last = lastEventId(req);
  let closed = false;
  let pumping = Promise.resolve();
  const finish = () => {
    if (closed) return;
    closed = true;
    unsubscribe();
    clearInterval(heartbeat);
    if (poll) clearInterval(poll);
    reply.raw.end();
  };
  const pump = async () => {
    // Until the current state is written (last === null), events are left to that first read.
    if (closed || last === null) return;
    const events = await jobs.eventsAfter(job.id, last);
    for (const e of events) {
      if (closed) return;
      reply.raw.write(frame(e.seq, e.event, e.job));
      last = e.seq;
      if (e.event !== 'job.updated') return finish();
    }
  };
  const schedule = () => {
    pumping = pumping.then(pump).catch(() => finish());
  };
  const unsubscribe = bus.subscribeJob(job.id, schedule);
  const heartbeat = setInterval(() => reply.raw.write(': ping\n\n'), HEARTBEAT_MS);
  const poll = bus.crossProcess ? null : setInterval(schedule, STORE_POLL_MS);
  req.raw.on('close', finish);
  // A client gone before this point (while the job was looked up) sends no 'close' any more.
  if (gone(req)) return finish();

  if (last === null) {
    // No resume point: the current state at once, numbered with the latest sequence.
    const events = await jobs.eventsAfter(job.id, 0);
    const latest = events[events.length - 1];
    const current = latest?.job ?? job;
    last = latest?.seq ?? 0;
    reply.raw.write(frame(last, eventName(current), current));
    if (current.status === 'succeeded' || current.status === 'failed') return finish();
  }
  schedule();
}

/** GET /v1/events: the same events for every job of the workspace, ids global to it. */
export async function streamWorkspace(req: FastifyRequest, reply: FastifyReply, jobs: JobStore, bus: JobEventBus, workspaceId: string): Promise<void> {
  if (!openStream(req, reply)) return;
  let closed = false;
  let stop = () => undefined as void;
  // Listened for before any await: a client that leaves while the store answers must not leave
  // this stream's heartbeat and subscription behind.
  req.raw.on('close', () => {
    closed = true;
    stop();
  });
  let last = lastEventId(req);
  if (last === null) {
    last = await jobs.latestWorkspaceEventId(workspaceId);
  }
  if (closed || gone(req)) return;
  let pumping = Promise.resolve();
  const pump = async () => {
    for (const e of await jobs.workspaceEventsAfter(workspaceId, last ?? 0)) {
      if (closed) return;
      reply.raw.write(frame(e.id, e.event, e.job));
      last = e.id;
    }
  };
  const schedule = () => {
    pumping = pumping.then(pump).catch(() => undefined);
  };
  const unsubscribe = bus.subscribeWorkspace(workspaceId, schedule);
  const heartbeat = setInterval(() => reply.raw.write(': ping\n\n'), HEARTBEAT_MS);
  const poll = bus.crossProcess ? null : setInterval(schedule, STORE_POLL_MS);
  stop = () => {
    unsubscribe();
    clearInterval(heartbeat);
    if (poll) clearInterval(poll);
  };
  pumping = pumping.then(pump).catch(() => undefined);
}

/** Whether the client of this request has already gone. */
function gone(req: FastifyRequest): boolean {
  return req.raw.socket.destroyed;
}
