// Server-sent events of decisions §6: `retry: 2000` and the current state at once, then every
// new event with its per-job sequence number as `id:`, a `: ping` comment every 15 s, resume
// after `Last-Event-ID`, and the stream closes after the terminal event. Events are read from
// the store (durable); the bus only says when to look.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HEARTBEAT_MS, STORE_POLL_MS, frame, lastEventId, openStream } from '../events/sse.ts';
import type { JobEvent, JobStore } from './jobs.store.ts';
import type { JobEventBus } from '../events/job-event-bus.ts';
import type { Job } from './jobs.schemas.ts';
import { ApiError } from '../errors.ts';

function eventName(job: Job): JobEvent['event'] {
  return job.status === 'succeeded' ? 'job.succeeded' : job.status === 'failed' ? 'job.failed' : 'job.updated';
}

export async function streamJob(req: FastifyRequest, reply: FastifyReply, jobs: JobStore, bus: JobEventBus, job: Job): Promise<void> {
  let last = lastEventId(req);
  // A finished job whose events retention removed has nothing newer to send after any id: it is
  // answered as a stream without a resume point (its terminal state, then the end), not held open.
  if (last !== null && (job.status === 'succeeded' || job.status === 'failed') && (await jobs.eventsAfter(job.id, 0)).length === 0) last = null;
  if (!openStream(req, reply)) return;
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

/**
 * GET /v1/events: the same events for every job of the workspace, with ids numbered within the
 * workspace. A Last-Event-ID older than what retention kept cannot be resumed without a gap: it is
 * refused (410 GONE) before the stream opens, so that the client re-reads the state it needs.
 */
export async function streamWorkspace(req: FastifyRequest, reply: FastifyReply, jobs: JobStore, bus: JobEventBus, workspaceId: string): Promise<void> {
  const resumeAfter = lastEventId(req);
  if (resumeAfter !== null) {
    const pruned = await jobs.prunedWorkspaceEventId(workspaceId);
    if (resumeAfter < pruned) {
      throw new ApiError('GONE', `Events after Last-Event-ID ${resumeAfter} are no longer kept (events are kept RETENTION_DAYS days; ids up to ${pruned} were removed). Reconnect without Last-Event-ID and read the jobs you follow with GET /v1/jobs/:id.`);
    }
  }
  // "From now on" is read before the stream opens: a client that acts on the opened stream (its
  // retry frame) must see every event that follows, even one written before this read returns.
  let last = resumeAfter ?? (req.method === 'HEAD' ? 0 : await jobs.latestWorkspaceEventId(workspaceId));
  if (!openStream(req, reply)) return;
  let closed = false;
  let stop = () => undefined as void;
  req.raw.on('close', () => {
    closed = true;
    stop();
  });
  if (gone(req)) return;
  let pumping = Promise.resolve();
  // A client that does not read (one that resumes from Last-Event-ID 0 and stalls) must not make
  // the server buffer the workspace's history: once the socket's buffer is full, no more events
  // are read until it drains (issue 32, finding 13: every wake wrote another page regardless).
  const pump = async () => {
    if (reply.raw.writableNeedDrain) return;
    for (const e of await jobs.workspaceEventsAfter(workspaceId, last)) {
      if (closed) return;
      const more = reply.raw.write(frame(e.id, e.event, e.job));
      last = e.id;
      if (!more) return;
    }
  };
  // A store that fails a read ends the stream cleanly (as a job stream does): the client
  // reconnects after `retry` with its Last-Event-ID and misses nothing.
  const fail = () => {
    closed = true;
    stop();
    reply.raw.end();
  };
  const schedule = () => {
    pumping = pumping.then(pump).catch(fail);
  };
  const unsubscribe = bus.subscribeWorkspace(workspaceId, schedule);
  const heartbeat = setInterval(() => reply.raw.write(': ping\n\n'), HEARTBEAT_MS);
  const poll = bus.crossProcess ? null : setInterval(schedule, STORE_POLL_MS);
  reply.raw.on('drain', schedule);
  stop = () => {
    unsubscribe();
    clearInterval(heartbeat);
    if (poll) clearInterval(poll);
    reply.raw.off('drain', schedule);
  };
  pumping = pumping.then(pump).catch(fail);
}

/** Whether the client of this request has already gone. */
function gone(req: FastifyRequest): boolean {
  return req.raw.socket.destroyed;
}
