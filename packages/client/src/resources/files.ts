// /v1/files: upload (path, stream, Blob or bytes, with progress), get, list, delete, diarization
// (as JSON or as an RTTM, WebVTT or SRT file), metrics, re-analysis.
import { multipartBody } from '../core/multipart.ts';
import type { Uploadable, UploadProgress } from '../core/multipart.ts';
import { PagePromise } from '../core/pagination.ts';
import type { HttpClient } from '../core/http.ts';
import { pathFor } from '../endpoints.ts';
import type { Diarization, DiarizationParams, FileListParams, List, Media, MediaMetrics, ReanalyzeParams, RequestOptions, SpeakerHints } from '../types.ts';

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

/** Uploads take as long as the file does: without an explicit timeout they get ten minutes. */
const UPLOAD_TIMEOUT_MS = 10 * 60_000;

export class Files {
  readonly #http: HttpClient;
  constructor(http: HttpClient) {
    this.#http = http;
  }

  async upload(source: Uploadable, params: UploadParams = {}, options?: RequestOptions): Promise<Media> {
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
    const media = await this.#http.request<Media>({
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

  /** Each speaker's measurements (409 until the analysis is ready). */
  metrics(id: string, options?: RequestOptions): Promise<MediaMetrics> {
    return this.#http.request({ ...pathFor('files.metrics', { id }), options });
  }

  /**
   * The diarization as a file's text: `rttm` (RTTM for diarization scorers), `vtt` (WebVTT with
   * `<v Speaker N>` voices and the transcript's text), `srt`, or `json` (the JSON of `diarization`).
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
