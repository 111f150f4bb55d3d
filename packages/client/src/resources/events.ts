// GET /v1/events: every job event of the workspace as one stream (decisions.md §6, for dashboards
// and workers that follow many jobs). It has no end: iterate until you break or abort.
import { reconnectingStream } from '../core/event-stream.ts';
import type { StreamOptions } from '../core/event-stream.ts';
import type { HttpClient } from '../core/http.ts';
import { pathFor } from '../endpoints.ts';
import type { JobEvent } from '../job-types.ts';
import { toJobEvent } from './jobs.ts';

export class Events {
  readonly #http: HttpClient;
  constructor(http: HttpClient) {
    this.#http = http;
  }

  /** Events from now on (or after `lastEventId`), resuming across cuts like `jobs.stream`. */
  async *stream(opts: StreamOptions = {}): AsyncGenerator<JobEvent> {
    for await (const sse of reconnectingStream(this.#http, pathFor('events.stream'), opts, () => false)) {
      const event = toJobEvent(sse);
      if (event) yield event;
    }
  }
}
