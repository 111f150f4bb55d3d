// A server-sent event stream that survives its connection: when the body ends early, breaks, or
// stays silent past the idle limit (the server pings every 15 s), it is opened again after the
// server's `retry:` advice with `Last-Event-ID`, so no event is lost or repeated. HTTP errors
// (401, 404…) are answers, not cuts: they are thrown. So is a 2xx that is no event stream (its
// media type is not text/event-stream): the page of a proxy or of another service, which
// reconnecting would only fetch again.
import { AbortError, APIConnectionError, APIError, RapportError, UnexpectedResponseError } from './errors.ts';
import { backoffMs, sleep } from './http.ts';
import type { HttpClient, HttpMethod } from './http.ts';
import { parseSse } from './sse.ts';
import type { ServerSentEvent, SseState } from './sse.ts';

export interface StreamOptions {
  signal?: AbortSignal;
  /** Resume after this event id (what a previous stream's last event carried). */
  lastEventId?: string;
  /** Consecutive failed reconnections before giving up with APIConnectionError. Default 5. */
  maxReconnects?: number;
  /** A connection silent this long is treated as cut. Default 45 000. */
  idleTimeoutMs?: number;
}

const EVENT_STREAM = 'text/event-stream';

/** Throws UnexpectedResponseError, after letting the body go, when the answer is no event stream. */
async function requireEventStream(res: Response, http: HttpClient, route: { method: HttpMethod; path: string }): Promise<void> {
  const mediaType = res.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() ?? null;
  if (mediaType === EVENT_STREAM) return;
  await res.body?.cancel().catch(() => undefined);
  throw new UnexpectedResponseError(
    `${route.method} ${route.path} answered ${res.status} with ${mediaType ?? 'no Content-Type'}, not ${EVENT_STREAM}: `
      + `is ${http.baseUrl} the Rapport API, and does no proxy on the way answer for it?`,
    res,
  );
}

function isNetworkError(err: unknown): boolean {
  // fetch body reads fail with TypeError ("terminated") or an AbortError DOMException.
  return err instanceof TypeError || (err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError'));
}

/** Yields events until `isLast` says one was the last; the stream's end alone is never the end. */
export async function* reconnectingStream(
  http: HttpClient,
  route: { method: HttpMethod; path: string },
  opts: StreamOptions,
  isLast: (event: ServerSentEvent) => boolean,
): AsyncGenerator<ServerSentEvent> {
  const state: SseState = { lastEventId: opts.lastEventId ?? null, retryMs: null };
  const maxReconnects = opts.maxReconnects ?? 5;
  let failures = 0;
  for (;;) {
    const idle = new AbortController();
    const signal = opts.signal ? AbortSignal.any([opts.signal, idle.signal]) : idle.signal;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = (): void => {
      clearTimeout(timer);
      timer = setTimeout(() => idle.abort(), opts.idleTimeoutMs ?? 45_000);
    };
    try {
      const headers: Record<string, string> = { Accept: EVENT_STREAM };
      if (state.lastEventId !== null) headers['Last-Event-ID'] = state.lastEventId;
      const res = await http.send({ ...route, raw: true, options: { signal, headers } });
      await requireEventStream(res, http, route);
      if (!res.body) throw new APIConnectionError('Event stream without a body');
      arm();
      for await (const sse of parseSse(res.body, state)) {
        arm();
        failures = 0;
        yield sse;
        if (isLast(sse)) return;
      }
    } catch (err) {
      if (opts.signal?.aborted) throw new AbortError('Stream was aborted');
      if (err instanceof APIError || err instanceof UnexpectedResponseError) throw err;
      if (!(err instanceof RapportError) && !idle.signal.aborted && !isNetworkError(err)) throw err;
    } finally {
      clearTimeout(timer);
    }
    if (++failures > maxReconnects) throw new APIConnectionError(`Event stream ${route.path} kept failing`);
    await sleep(Math.max(state.retryMs ?? 0, failures > 1 ? backoffMs(failures - 2) : 0), opts.signal);
  }
}
