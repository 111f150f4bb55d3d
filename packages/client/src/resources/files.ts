// /v1/files: upload (path, stream, Blob or bytes, with progress), get, list, delete, diarization
// (as JSON or as an RTTM, WebVTT or SRT file), metrics (JSON or CSV), re-analysis, the file's bytes (with
// ranges, or as a short-lived link for players), and the analysis as event streams.
import { reconnectingStream } from '../core/event-stream.ts';
import type { StreamOptions } from '../core/event-stream.ts';
import type { ServerSentEvent } from '../core/sse.ts';
import { multipartBody } from '../core/multipart.ts';
import type { Uploadable, UploadProgress } from '../core/multipart.ts';
import { PagePromise } from '../core/pagination.ts';
import type { HttpClient } from '../core/http.ts';
import { pathFor } from '../endpoints.ts';
import type { List, RequestOptions } from '../common-types.ts';
import type { ContentLink, ContentLinkParams, ContentParams, Diarization, DiarizationParams, FileListParams, Media, MediaEvent, ReanalyzeParams, SpeakerHints, UploadedMedia } from '../media-types.ts';
import type { MediaMetrics, MetricsParams } from '../measure-types.ts';
import { metricsArgs, readMetrics } from './metrics-format.ts';

export interface UploadParams extends SpeakerHints {
  label?: string;
  /** Attach a transcript to existing media (hints given with it replace the media's). */
  mediaId?: string;
  /** The name the server records; defaults to the path's base name, the File's name, or `upload`. */
  filename?: string;
  contentType?: string;
  onProgress?: (progress: UploadProgress) => void;
}

export type DiarizationFormat = NonNullable<DiarizationParams['format']>;

const DIARIZATION_ACCEPT: Record<DiarizationFormat, string> = {
  json: 'application/json',
  rttm: 'text/plain',
  vtt: 'text/vtt',
  srt: 'application/x-subrip',
};

/** A media event from its SSE frame; other event names (future ones) give null and are skipped. */
function toMediaEvent(sse: ServerSentEvent): MediaEvent | null {
  if (sse.event !== 'media.updated' && sse.event !== 'media.ready' && sse.event !== 'media.failed') return null;
  return { id: sse.id, event: sse.event, media: JSON.parse(sse.data) as Media };
}

/** Uploads take as long as the file does: without an explicit timeout they get ten minutes. */
const UPLOAD_TIMEOUT_MS = 10 * 60_000;

export class Files {
  readonly #http: HttpClient;
  constructor(http: HttpClient) {
    this.#http = http;
  }

  /** `duplicate: true` in the answer: the workspace already had these bytes, and this is that media (decisions §18). */
  async upload(source: Uploadable, params: UploadParams = {}, options?: RequestOptions): Promise<UploadedMedia> {
    let last: UploadProgress | undefined;
    const onProgress = params.onProgress && ((p: UploadProgress): void => {
      last = p;
      params.onProgress?.(p);
    });
    const rawBody = await multipartBody({
      source,
      fields: {
        label: params.label,
        mediaId: params.mediaId,
        numSpeakers: params.numSpeakers?.toString(),
        minSpeakers: params.minSpeakers?.toString(),
        maxSpeakers: params.maxSpeakers?.toString(),
      },
      filename: params.filename,
      contentType: params.contentType,
      onProgress,
    });
    const media = await this.#http.request<UploadedMedia>({
      ...pathFor('files.upload'),
      rawBody,
      options,
      defaultTimeoutMs: Math.max(UPLOAD_TIMEOUT_MS, this.#http.timeoutMs),
    });
    // A FormData body (browsers) cannot be counted as it goes: report its end once it is accepted.
    if (onProgress && last && last.total !== null && last.loaded < last.total) onProgress({ loaded: last.total, total: last.total });
    return media;
  }

  retrieve(id: string, options?: RequestOptions): Promise<Media> {
    return this.#http.request({ ...pathFor('files.retrieve', { id }), options });
  }

  list(params: FileListParams = {}, options?: RequestOptions): PagePromise<Media> {
    return new PagePromise((cursor) =>
      this.#http.request<List<Media>>({ ...pathFor('files.list'), query: { ...params, cursor }, options }), params.cursor);
  }

  delete(id: string, options?: RequestOptions): Promise<void> {
    return this.#http.request({ ...pathFor('files.delete', { id }), options });
  }

  diarization(id: string, options?: RequestOptions): Promise<Diarization> {
    return this.#http.request({ ...pathFor('files.diarization', { id }), options });
  }

  /**
   * Analyses the media again with the service's current engine (1 credit per started minute, as
   * any analysis). Without hints the stored ones are used; with hints they replace them. Answers
   * the media, its analysis pending again: follow it with `retrieve`.
   */
  reanalyze(id: string, hints: ReanalyzeParams = {}, options?: RequestOptions): Promise<Media> {
    return this.#http.request({ ...pathFor('files.reanalyze', { id }), body: hints, options });
  }

  /**
   * Each speaker's measurements (409 until the analysis is ready); with `{ format: 'csv' }`, the
   * service's CSV file as text (one row per speaker, units in the header, empty where not measured).
   */
  metrics(id: string, options?: RequestOptions): Promise<MediaMetrics>;
  metrics(id: string, params: MetricsParams & { format?: 'json' }, options?: RequestOptions): Promise<MediaMetrics>;
  metrics(id: string, params: { format: 'csv' }, options?: RequestOptions): Promise<string>;
  metrics(id: string, params?: MetricsParams | RequestOptions, options?: RequestOptions): Promise<MediaMetrics | string> {
    return readMetrics(this.#http, 'files.metrics', id, ...metricsArgs(params, options)) as Promise<MediaMetrics | string>;
  }

  /**
   * The uploaded file's bytes, as the fetch `Response` (its body unread: stream it, or call
   * `arrayBuffer()`). With `range`, only those bytes: the answer is then `206` with
   * `Content-Range`; a range outside the file throws `RangeNotSatisfiableError` (416).
   */
  content(id: string, params: ContentParams = {}, options?: RequestOptions): Promise<Response> {
    const range: Record<string, string> = params.range ? { Range: `bytes=${params.range.start}-${params.range.end ?? ''}` } : {};
    return this.#http.send({
      ...pathFor('files.content', { id }),
      raw: true,
      options: { ...options, headers: { Accept: '*/*', ...range, ...options?.headers } },
    });
  }

  /**
   * A link that streams this media's bytes without the API key, for a player that cannot send
   * headers (`<audio src>`); it works for `expiresInSec` (60–3600, default 900), for this media
   * only, and dies with the key that made it. `url` is absolute, on this client's base URL.
   * Treat it as a secret until it expires.
   */
  async createContentLink(id: string, params: ContentLinkParams = {}, options?: RequestOptions): Promise<ContentLink> {
    const link = await this.#http.request<ContentLink>({ ...pathFor('files.createContentLink', { id }), body: params, options });
    return { ...link, url: this.#http.baseUrl + link.url };
  }

  /**
   * This media's analysis as it happens: its current state first, then each change
   * (`media.updated` with `analysis.stage` and `analysis.progress`), until `media.ready` or
   * `media.failed`, resuming with `Last-Event-ID` across cuts.
   */
  async *events(id: string, opts: StreamOptions = {}): AsyncGenerator<MediaEvent> {
    let done = false;
    for await (const sse of reconnectingStream(this.#http, pathFor('files.events', { id }), opts, () => done)) {
      const event = toMediaEvent(sse);
      if (!event) continue;
      done = event.event !== 'media.updated';
      yield event;
    }
  }

  /**
   * Every media of the workspace whose analysis changes, from now on (or after `lastEventId`),
   * each in its latest state; it has no end: iterate until you break or abort.
   */
  async *stream(opts: StreamOptions = {}): AsyncGenerator<MediaEvent> {
    for await (const sse of reconnectingStream(this.#http, pathFor('files.stream'), opts, () => false)) {
      const event = toMediaEvent(sse);
      if (event) yield event;
    }
  }

  /**
   * The diarization as a file's text: `rttm` (RTTM for diarization scorers), `vtt` (WebVTT with
   * `<v Name>` voices, each speaker's display name, and the transcript's text), `srt`, or `json` (the JSON of `diarization`).
   */
  async diarizationFile(id: string, format: DiarizationFormat, options?: RequestOptions): Promise<string> {
    const res = await this.#http.send({
      ...pathFor('files.diarization', { id }),
      query: { format },
      options: { ...options, headers: { Accept: DIARIZATION_ACCEPT[format], ...options?.headers } },
    });
    return res.text();
  }
}
