// HTTP routes of uploads and media (decisions §7): thin handlers over FilesService.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.ts';
import { requireAuth } from '../http/context.ts';
import { claimIdempotencyKey, sendReplay } from '../http/idempotency-hooks.ts';
import { IdParams, ListOf } from '../http/schema-helpers.ts';
import { Diarization, DiarizationQuery, Media, MediaListQuery, ReanalyzeBody, UploadForm } from './files.schemas.ts';
import { DIARIZATION_CONTENT_TYPES } from './diarization-export.ts';

export function registerFilesRoutes(app: FastifyInstance, services: Services): void {
  const files = services.files;

  app.post('/v1/files', {
    config: {
      rateClass: 'upload',
      // The key is taken once the body is received, with the file's SHA-256 (issue 20, finding 14).
      idempotencyAfterBody: true,
      doc: {
        summary: 'Upload audio, video or a transcript (multipart: part `file`; optional `label`, `mediaId` to attach a transcript, speaker-count hints `numSpeakers` or `minSpeakers`/`maxSpeakers`)',
        tags: ['files'],
        multipart: UploadForm,
        responses: { 201: { description: 'The media resource (with mediaId: the media the transcript was attached to)', schema: Media } },
      },
    },
  }, async (req, reply) => {
    const outcome = await files.upload(requireAuth(req.auth), req, (upload) => claimIdempotencyKey(req, upload));
    return outcome.kind === 'replay' ? sendReplay(reply, outcome.answer) : reply.code(201).send(outcome.media);
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
    // The body is optional: no body is the same as `{}` (keep the stored hints).
    preValidation: async (req) => {
      req.body ??= {};
    },
    config: {
      rateClass: 'files',
      doc: {
        summary: 'Analyse audio or video media again with the current engine, optionally with new speaker-count hints (402 without the credits of an analysis; 409 while it is analysed or a queued or running job uses it)',
        tags: ['files'],
        bodyOptional: true,
        responses: { 202: { description: 'The media, its analysis pending again (already pending: it takes the new hints)', schema: Media } },
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
}
