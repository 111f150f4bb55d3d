// The analysis of media as server-sent events, framed as the job streams are (decisions §6):
// `retry: 2000`, a `: ping` every 15 s, `Last-Event-ID` to resume. An event is a media's state:
// `media.updated` (pending or running, with its stage and progress), `media.ready` or
// `media.failed`, and `data:` the media resource. Its id is the media's change number
// (media-changes.ts), counted per workspace and growing, so a stream that resumes gets each media
// that changed since in its latest state (progress steps in between are not replayed). The
// stream of one media starts with its current state and closes after a terminal one; the
// workspace's stream sends what changes from now on (or after Last-Event-ID) and stays open.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HEARTBEAT_MS, STORE_POLL_MS, frame, lastEventId, openStream } from '../events/sse.ts';
import type { MediaChangeBus } from '../events/media-change-bus.ts';
import type { MediaRecord, MediaStore } from './media.store.ts';
import type { Media } from './files.schemas.ts';

const PAGE = 100;

export type MediaEventName = 'media.updated' | 'media.ready' | 'media.failed';

export function mediaEventName(m: Pick<MediaRecord, 'analysisStatus'>): MediaEventName {
  return m.analysisStatus === 'ready' ? 'media.ready' : m.analysisStatus === 'failed' ? 'media.failed' : 'media.updated';
}

interface StreamDeps {
  store: MediaStore;
  bus: MediaChangeBus;
  resource: (m: MediaRecord) => Promise<Media>;
}

/** Holds the stream open: heartbeat, store polling and bus wake-ups run `pump` one at a time. */
function run(req: FastifyRequest, reply: FastifyReply, subscribe: (wake: () => void) => () => void, pump: (finish: () => void) => Promise<void>): void {
  let closed = false;
  let pumping = Promise.resolve();
  const finish = (): void => {
    if (closed) return;
    closed = true;
    unsubscribe();
    clearInterval(heartbeat);
    clearInterval(poll);
    reply.raw.off('drain', schedule);
    reply.raw.end();
  };
  const schedule = (): void => {
    pumping = pumping.then(() => (closed ? undefined : pump(finish))).catch(() => finish());
  };
  const unsubscribe = subscribe(schedule);
  const heartbeat = setInterval(() => reply.raw.write(': ping\n\n'), HEARTBEAT_MS);
  const poll = setInterval(schedule, STORE_POLL_MS);
  reply.raw.on('drain', schedule);
  req.raw.on('close', finish);
  schedule();
}

/** GET /v1/files/:id/events: this media's analysis until it is ready or failed. */
export function streamMedia(req: FastifyRequest, reply: FastifyReply, deps: StreamDeps, media: MediaRecord): void {
  if (!openStream(req, reply)) return;
  let last = lastEventId(req) ?? -1;
  run(req, reply, (wake) => deps.bus.subscribeMedia(media.id, wake), async (finish) => {
    const m = await deps.store.getLight(media.workspaceId, media.id);
    // Deleted meanwhile: nothing more will happen to it.
    if (!m) return finish();
    const event = mediaEventName(m);
    if (m.changedSeq <= last) {
      // Resumed after its terminal event: that was the last one.
      if (event !== 'media.updated') finish();
      return;
    }
    last = m.changedSeq;
    reply.raw.write(frame(m.changedSeq, event, await deps.resource(m)));
    if (event !== 'media.updated') finish();
  });
}

/** GET /v1/files/events: every media of the workspace whose analysis changes. */
export async function streamWorkspaceMedia(req: FastifyRequest, reply: FastifyReply, deps: StreamDeps, workspaceId: string): Promise<void> {
  // Without Last-Event-ID: from the workspace's newest change, read before the stream opens. Read
  // by the first pump instead, a change made after the client saw the stream open but before the
  // read returned was skipped (seen on PostgreSQL under load).
  let last = lastEventId(req) ?? (req.method === 'HEAD' ? 0 : await deps.store.latestChange(workspaceId));
  if (!openStream(req, reply)) return;
  // A client that left during the read: nothing will close this stream for it.
  if (req.raw.socket.destroyed) return void reply.raw.end();
  run(req, reply, (wake) => deps.bus.subscribeWorkspace(workspaceId, wake), async () => {
    // A client that does not read gets no more than its socket's buffer (issue 32, finding 13):
    // reading goes on once it drains.
    if (reply.raw.writableNeedDrain) return;
    for (;;) {
      const changed = await deps.store.changesAfter(workspaceId, last, PAGE);
      for (const m of changed) {
        const more = reply.raw.write(frame(m.changedSeq, mediaEventName(m), await deps.resource(m)));
        last = m.changedSeq;
        if (!more) return;
      }
      if (changed.length < PAGE) return;
    }
  });
}
