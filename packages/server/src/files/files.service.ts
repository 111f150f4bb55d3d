// Uploads and media: receive and check an upload, store it (file renamed into place, row and
// analysis task and credit reservation in one transaction), attach transcripts to existing
// media, and read, list and delete media. A file on disk without its row, or a row without its
// file, is never left behind by a failed request.
import type { FastifyRequest } from 'fastify';
import { ApiError, type ErrorDetail } from '../http/errors.ts';
import type { AuthContext } from '../http/context.ts';
import type { Services } from '../services.ts';
import { InsufficientCredits } from '../credits/credits.ledger.ts';
import { InvalidCursor } from '../store/cursor.ts';
import { newId } from '../ids.ts';
import { analysisCost, type MediaRecord } from './media.store.ts';
import { receiveUpload, type ReceivedUpload } from './upload-stream.ts';
import { detectMedia } from './media-probe.ts';
import { toDiarization, toMediaResource } from './media-resource.ts';
import type { Diarization, Media, MediaListQuery } from './files.schemas.ts';

const MAX_LABEL_CODE_POINTS = 64;
const MAX_ID_LENGTH = 256;

export class FilesService {
  private readonly services: Services;
  constructor(services: Services) {
    this.services = services;
  }

  private get media() {
    return this.services.stores.media;
  }

  async upload(auth: AuthContext, req: FastifyRequest): Promise<Media> {
    const blobs = this.services.stores.blobs;
    const up = await receiveUpload(req, blobs);
    let committedPath: string | null = null;
    try {
      checkFields(up);
      if (up.sizeBytes === 0) throw new ApiError('VALIDATION_FAILED', 'The file is empty.', { details: [{ path: '/file', message: 'is empty' }] });
      const mediaId = up.fields.mediaId;
      if (mediaId !== undefined && !(await this.media.exists(auth.workspaceId, mediaId))) {
        throw new ApiError('REFERENCE_NOT_FOUND', `Media ${mediaId} does not exist in this workspace.`, {
          details: [{ path: '/mediaId', message: `media ${mediaId} does not exist in this workspace` }],
        });
      }
      const detected = await detectMedia(up.tempPath, up.head, up.sizeBytes, this.services.config.maxMediaSec);
      if (mediaId !== undefined) {
        if (detected.kind !== 'transcript' || !detected.transcript) {
          throw new ApiError('VALIDATION_FAILED', 'mediaId is only for attaching a transcript to existing media.', {
            details: [{ path: '/mediaId', message: `is only allowed with a transcript file; this file is ${detected.kind} (${detected.contentType})` }],
          });
        }
        const attached = await this.attachTranscript(auth, mediaId, detected.transcript);
        await blobs.remove(up.tempPath);
        return attached;
      }
      const id = newId('med');
      committedPath = await blobs.commit(up.tempPath, id);
      const record = await this.media.insert({
        id,
        workspaceId: auth.workspaceId,
        kind: detected.kind,
        filename: up.filename,
        contentType: detected.contentType,
        sizeBytes: up.sizeBytes,
        sha256: up.sha256,
        durationSec: detected.durationSec,
        label: up.fields.label ?? null,
        storagePath: committedPath,
        transcript: detected.transcript,
        // A transcript on its own needs no audio analysis: its speakers are read from its cues.
        analysisStatus: detected.kind === 'transcript' ? 'ready' : 'pending',
      });
      this.services.wakeWorker();
      return toMediaResource(record, new Map());
    } catch (err) {
      await blobs.remove(committedPath ?? up.tempPath);
      if (err instanceof InsufficientCredits) {
        throw new ApiError('INSUFFICIENT_CREDITS', `Analysing this media needs ${err.needed} credits; ${err.available} available.`);
      }
      throw err;
    }
  }

  private async attachTranscript(auth: AuthContext, mediaId: string, transcript: NonNullable<MediaRecord['transcript']>): Promise<Media> {
    const target = await this.media.get(auth.workspaceId, mediaId);
    if (!target) throw new ApiError('REFERENCE_NOT_FOUND', `Media ${mediaId} does not exist in this workspace.`, { details: [{ path: '/mediaId', message: 'does not exist' }] });
    if (target.kind === 'transcript') {
      throw new ApiError('VALIDATION_FAILED', 'A transcript can only be attached to audio or video media.', {
        details: [{ path: '/mediaId', message: 'is a transcript; attach transcripts to audio or video media' }],
      });
    }
    const outcome = await this.media.attachTranscriptForAnalysis(auth.workspaceId, mediaId, transcript);
    if (outcome === 'missing') throw new ApiError('REFERENCE_NOT_FOUND', `Media ${mediaId} does not exist in this workspace.`, { details: [{ path: '/mediaId', message: 'does not exist' }] });
    if (outcome === 'running') {
      throw new ApiError('CONFLICT', `Media ${mediaId} is being analysed right now; attach the transcript once analysis.status is ready or failed (it is then analysed again with the transcript, for ${analysisCost(target.durationSec)} credits).`);
    }
    if (outcome === 'reanalysing') this.services.wakeWorker();
    return this.get(auth, mediaId);
  }

  async get(auth: AuthContext, id: string): Promise<Media> {
    return this.resource(await this.load(auth, id));
  }

  async list(auth: AuthContext, query: MediaListQuery): Promise<{ data: Media[]; nextCursor: string | null }> {
    try {
      const page = await this.media.list(auth.workspaceId, query.limit ?? 20, query.cursor);
      const data: Media[] = [];
      for (const m of page.data) data.push(await this.resource(m));
      return { data, nextCursor: page.nextCursor };
    } catch (err) {
      if (err instanceof InvalidCursor) throw new ApiError('VALIDATION_FAILED', err.message, { details: [{ path: '/query/cursor', message: err.message }] });
      throw err;
    }
  }

  async delete(auth: AuthContext, id: string): Promise<void> {
    const { deleted, blockedBy } = await this.media.deleteUnlessInUse(auth.workspaceId, id);
    if (blockedBy.length > 0) {
      throw new ApiError('CONFLICT', `Media ${id} is used by ${blockedBy.length === 1 ? 'job' : 'jobs'} ${blockedBy.join(', ')} that ${blockedBy.length === 1 ? 'is' : 'are'} still queued or running; cancel ${blockedBy.length === 1 ? 'it' : 'them'} or wait, then delete.`);
    }
    if (!deleted) throw new ApiError('NOT_FOUND', `No media ${id}.`);
    await this.services.stores.blobs.remove(deleted.storagePath);
  }

  /**
   * Speech segments by speaker. They exist once analysis is ready: before that the answer is
   * 409 CONFLICT (the media exists, its state does not allow it yet), naming the status so a
   * client knows whether to wait (pending, running) or give up (failed).
   */
  async diarization(auth: AuthContext, id: string): Promise<Diarization> {
    const m = await this.load(auth, id);
    if (m.analysisStatus === 'failed') {
      throw new ApiError('CONFLICT', `Media ${id} could not be analysed (${m.analysisError?.code ?? 'internal_error'}: ${m.analysisError?.message ?? 'unknown error'}); it has no diarization.`);
    }
    if (m.analysisStatus !== 'ready') {
      throw new ApiError('CONFLICT', `The analysis of media ${id} is ${m.analysisStatus}; the diarization exists once analysis.status is ready.`);
    }
    return toDiarization(m);
  }

  private async load(auth: AuthContext, id: string): Promise<MediaRecord> {
    const m = await this.media.get(auth.workspaceId, id);
    if (!m) throw new ApiError('NOT_FOUND', `No media ${id}.`);
    return m;
  }

  private async resource(m: MediaRecord): Promise<Media> {
    return toMediaResource(m, m.analysis ? await this.media.links(m.id) : new Map());
  }
}

/** The text fields of the upload: `label` 1..64 code points, `mediaId` an id, not both. */
function checkFields(up: ReceivedUpload): void {
  const details: ErrorDetail[] = [];
  const { label, mediaId } = up.fields;
  if (label !== undefined) {
    const n = [...label].length;
    if (n < 1 || n > MAX_LABEL_CODE_POINTS) details.push({ path: '/label', message: `must be 1 to ${MAX_LABEL_CODE_POINTS} characters` });
    if (mediaId !== undefined) details.push({ path: '/label', message: 'cannot be combined with mediaId: the media keeps its own label' });
  }
  if (mediaId !== undefined && (mediaId.length < 1 || mediaId.length > MAX_ID_LENGTH)) {
    details.push({ path: '/mediaId', message: `must be 1 to ${MAX_ID_LENGTH} characters` });
  }
  if (details.length > 0) throw new ApiError('VALIDATION_FAILED', 'The upload is not valid; see details.', { details });
}
