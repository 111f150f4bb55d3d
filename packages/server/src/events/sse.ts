// What every server-sent-event stream of the API shares (decisions §6): the head (`retry: 2000`,
// no caching or buffering by proxies), one frame per event with its `id:`, the `: ping` comment
// every 15 s, and the `Last-Event-ID` a reconnecting client sends back.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';

export const HEARTBEAT_MS = 15_000;

/** The body of every stream, for the OpenAPI document; what its events carry, each route says. */
export const EventStream = Type.String({
  contentMediaType: 'text/event-stream',
  description: 'Server-sent events: `retry: 2000`, then frames of `id:`, `event:` and `data:` (JSON), and a `: ping` comment every 15 s; reconnect with Last-Event-ID',
});
/**
 * The in-process buses only carry events of this process; with ROLE=api and a separate worker the
 * events arrive through the store, so streams also look there on this interval. A cross-process
 * job bus (PostgreSQL's LISTEN/NOTIFY, or Redis pub/sub, whose subscribers are also told to read
 * the store after EVENT_CATCH_UP_SEC without news) carries every process's job events: job
 * streams do not poll then. The media change bus is in-process on both backends, so media streams always poll.
 */
export const STORE_POLL_MS = 1_000;

export function frame(id: number, event: string, data: unknown): string {
  return `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** Writes the stream's head; false for a HEAD request, which ends there (no stream is held open for it). */
export function openStream(req: FastifyRequest, reply: FastifyReply): boolean {
  reply.hijack();
  const headers: Record<string, string | number | string[]> = {};
  for (const [k, v] of Object.entries(reply.getHeaders())) if (v !== undefined) headers[k] = v;
  reply.raw.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    // A HEAD has no stream to keep alive: the client's own Connection header decides.
    ...(req.method === 'HEAD' ? {} : { connection: 'keep-alive' }),
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

/** The `Last-Event-ID` header as a number, or null when absent or not a decimal id. */
export function lastEventId(req: FastifyRequest): number | null {
  const raw = req.headers['last-event-id'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || !/^\d{1,15}$/.test(value.trim())) return null;
  return Number(value.trim());
}
