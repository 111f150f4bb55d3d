// HTTP routes of uploads and media (decisions §7): thin handlers over FilesService.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../compose/services.ts';
import { requireAuth } from '../workspace/auth.ts';
import { claimIdempotencyKey, sendReplay } from '../http/idempotency-hooks.ts';
import { IdParams, ListOf } from '../http/schema-helpers.ts';
import { ContentLink, ContentLinkBody, ContentQuery, Diarization, DiarizationQuery, Media, MediaListQuery, ReanalyzeBody, UploadedMedia, UploadForm } from './files.schemas.ts';
import { DIARIZATION_CONTENT_TYPES } from './diarization-export.ts';
import { sendMediaContent } from './media-content.ts';
import type { MediaRecord } from './media.store.ts';
import { streamMedia, streamWorkspaceMedia } from './media-stream.ts';
import { registerStream } from '../events/stream-registry.ts';
import { EventStream } from '../events/sse.ts';

export function registerFilesRoutes(app: FastifyInstance, services: Services): void {
  const files = services.files;
  const streamDeps = { store: services.stores.media, bus: services.mediaBus, resource: (m: MediaRecord) => files.resourceOf(m) };

  app.post('/v1/files', {
    config: {
      rateClass: 'upload',
      // The key is taken once the body is received, with the file's SHA-256 (issue 20, finding 14).
      idempotencyAfterBody: true,
      doc: {
        summary: 'Upload audio, video or a transcript (multipart: part `file`; optional `label`, `mediaId` to attach the file to existing media (a transcript to audio or video, audio or video to a transcript on its own), speaker-count hints `numSpeakers` or `minSpeakers`/`maxSpeakers`)',
        tags: ['files'],
        multipart: UploadForm,
        responses: {
          200: { description: 'The workspace already has media with these bytes (same SHA-256): that media, with duplicate: true; nothing was stored, analysed or charged, and label and hints were not applied (decisions §18)', schema: UploadedMedia },
          201: { description: 'The media resource, with duplicate: false (with mediaId: the media the file was attached to, as it is now: audio or video with the transcript attached, or the transcript on its own become the audio or video sent, its analysis pending)', schema: UploadedMedia },
          409: { description: "QUOTA_EXCEEDED: the file does not fit in what is left of the workspace's storage quota (MEDIA_QUOTA_BYTES); bytes the workspace already has need no room (the 200 answer)" },
          507: { description: 'INSUFFICIENT_STORAGE: the media disk has less than MIN_FREE_DISK_BYTES free; retry later (bytes the workspace already has need no room: the 200 answer)' },
        },
      },
    },
  }, async (req, reply) => {
    const outcome = await files.upload(requireAuth(req.auth), req, (upload) => claimIdempotencyKey(req, upload));
    if (outcome.kind === 'replay') return sendReplay(reply, outcome.answer);
    return reply.code(outcome.duplicate ? 200 : 201).send({ ...outcome.media, duplicate: outcome.duplicate });
  });

  app.get('/v1/files', {
    schema: { querystring: MediaListQuery },
    config: { rateClass: 'files', doc: { summary: 'List media, newest first', tags: ['files'], responses: { 200: { description: 'A page of media', schema: ListOf(Media) } } } },
  }, async (req) => files.list(requireAuth(req.auth), req.query as MediaListQuery));

  app.get('/v1/files/:id', {
    schema: { params: IdParams },
    config: { rateClass: 'files', doc: { summary: 'A media resource with its analysis status and speakers', tags: ['files'], responses: { 200: { description: 'The media', schema: Media } } } },
  }, async (req) => files.get(requireAuth(req.auth), (req.params as IdParams).id));

  app.delete('/v1/files/:id', {
    schema: { params: IdParams },
    config: {
      rateClass: 'files',
      doc: { summary: 'Delete media, its file and what was derived from it (409 while a queued or running job uses it)', tags: ['files'], responses: { 204: { description: 'Deleted' } } },
    },
  }, async (req, reply) => {
    await files.delete(requireAuth(req.auth), (req.params as IdParams).id);
    return reply.code(204).send();
  });

  app.post('/v1/files/:id/reanalyze', {
    schema: { params: IdParams, body: ReanalyzeBody },
    // The body is optional (bodyOptional): no body is the same as `{}` (keep the stored hints).
    config: {
      rateClass: 'files',
      doc: {
        summary: 'Analyse audio or video media again with the current engine, optionally with new speaker-count hints (402 without the credits of an analysis; 409 while it is analysed or a queued or running job uses it)',
        tags: ['files'],
        bodyOptional: true,
        responses: { 202: { description: 'The media, its analysis pending again (already pending: it takes the new hints)', schema: Media, headers: { Location: 'the media: /v1/files/{id}' } } },
      },
    },
  }, async (req, reply) => {
    const { id } = req.params as IdParams;
    const media = await files.reanalyze(requireAuth(req.auth), id, req.body as ReanalyzeBody);
    return reply.code(202).header('location', `/v1/files/${encodeURIComponent(id)}`).send(media);
  });

  app.get('/v1/files/:id/diarization', {
    schema: { params: IdParams, querystring: DiarizationQuery },
    config: {
      rateClass: 'files',
      doc: {
        summary: 'Who speaks when (409 CONFLICT until analysis.status is ready); ?format=rttm|vtt|srt for the same segments as a file',
        tags: ['files'],
        responses: {
          200: {
            description: 'Speech segments by speaker index, seconds; with format rttm, vtt or srt the RTTM, WebVTT or SRT text',
            schema: Diarization,
            alternatives: Object.values(DIARIZATION_CONTENT_TYPES).map((t) => t.split(';')[0] ?? t),
          },
        },
      },
    },
  }, async (req, reply) => {
    const auth = requireAuth(req.auth);
    const { id } = req.params as IdParams;
    const format = (req.query as DiarizationQuery).format ?? 'json';
    if (format === 'json') return files.diarization(auth, id);
    const file = await files.diarizationFile(auth, id, format);
    return reply.type(file.contentType).send(file.body);
  });

  app.get('/v1/files/:id/content', {
    schema: { params: IdParams, querystring: ContentQuery },
    config: {
      rateClass: 'files',
      doc: {
        summary: 'The uploaded file\'s bytes, with range requests (Range: bytes=…); authenticated by the key, or by a content link\'s ?token= for players that cannot send headers',
        tags: ['files'],
        contentLink: true,
        responses: {
          200: { description: 'The whole file, under its detected content type', binary: true, headers: { 'Accept-Ranges': 'bytes', ETag: 'the file\'s SHA-256, quoted' } },
          206: { description: 'The byte range asked for', binary: true, headers: { 'Content-Range': 'bytes start-end/size', ETag: 'the file\'s SHA-256, quoted' } },
          304: { description: 'If-None-Match names the file\'s ETag' },
        },
      },
    },
  }, async (req, reply) => {
    const [auth, id] = [requireAuth(req.auth), (req.params as IdParams).id];
    return sendMediaContent(req, reply, await files.content(auth, id), () => files.content(auth, id));
  });

  app.post('/v1/files/:id/content-links', {
    schema: { params: IdParams, body: ContentLinkBody },
    config: {
      rateClass: 'files',
      // The link is a bearer capability: never kept for an idempotent replay.
      revealsSecret: true,
      doc: {
        summary: 'A short-lived link that streams this media\'s bytes without the API key (for <audio>/<video> elements); optional body { expiresInSec: 60–3600, default 900 }',
        tags: ['files'],
        bodyOptional: true,
        responses: { 201: { description: 'The link: url (path and query, resolve it against the API\'s address) and expiresAt', schema: ContentLink } },
      },
    },
  }, async (req, reply) => reply.code(201).send(await files.contentLink(requireAuth(req.auth), (req.params as IdParams).id, req.body as ContentLinkBody)));

  app.get('/v1/files/:id/events', {
    schema: { params: IdParams },
    config: {
      rateClass: 'files',
      doc: {
        summary: 'This media\'s analysis as server-sent events (media.updated with stage and progress, then media.ready or media.failed; closes after it)',
        tags: ['files'],
        responses: { 200: { description: 'text/event-stream; data: the media resource', schema: EventStream, contentType: 'text/event-stream' } },
      },
    },
  }, async (req, reply) => {
    const media = await files.content(requireAuth(req.auth), (req.params as IdParams).id);
    registerStream(services.streams, req, reply);
    streamMedia(req, reply, streamDeps, media);
  });

  app.get('/v1/files/events', {
    config: {
      rateClass: 'files',
      doc: {
        summary: 'The analysis of every media of the workspace as server-sent events, from now on (or after Last-Event-ID); does not close',
        tags: ['files'],
        responses: { 200: { description: 'text/event-stream; data: the media resource', schema: EventStream, contentType: 'text/event-stream' } },
      },
    },
  }, async (req, reply) => {
    const auth = requireAuth(req.auth);
    registerStream(services.streams, req, reply);
    await streamWorkspaceMedia(req, reply, streamDeps, auth.workspaceId);
  });
}
