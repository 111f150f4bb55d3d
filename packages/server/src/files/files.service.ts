// Uploads and media: receive and check an upload, store it (file renamed into place, row and
// analysis task and credit reservation in one transaction) or attach it to existing media
// (files.attach.ts), and read, list and delete media. A file on disk without its row, or a row without its
// file, is never left behind by a failed request.
import { hasControls, NO_CONTROLS_MESSAGE } from '../control-chars.ts';
import type { FastifyRequest } from 'fastify';
import { DIARIZATION_CONTENT_TYPES } from './diarization-export.ts';
import { readyDiarization } from '../render/render-tasks.ts';
import type { RenderPool } from '../render/render-pool.ts';
import { ApiError } from '../errors.ts';
import type { AuthContext } from '../workspace/auth.ts';
import { InsufficientCredits } from '../credits/credits.ledger.ts';
import { InvalidCursor } from '../store/cursor.ts';
import { newId, nowIso } from '../ids.ts';
import type { MediaRecord, MediaStore } from './media.store.ts';
import { attachAudio, attachTranscript, mediaNotFound } from './files.attach.ts';
import type { ContentLinkStore } from './content-links.store.ts';
import type { EntityStore } from '../entities/entities.store.ts';
import type { BlobStore } from '../store/blob-store.ts';
import { receiveUpload, type ReceivedUpload } from './upload-stream.ts';
import { DiskSpaceGuard } from './storage-space.ts';
import { attachAllowance, quotaError } from './upload-quota.ts';
import { QuotaExceeded, type QuotaUsage, type Quotas } from '../workspace/quotas.ts';
import { detectMedia } from './media-probe.ts';
import { toMediaResource } from './media-resource.ts';
import { hintsFromBody, hintsFromForm } from './speaker-hints.ts';
import {
  CONTENT_LINK_DEFAULT_SEC, type ContentLink, type ContentLinkBody, type Diarization, type DiarizationFormat, type Media, type MediaListQuery, type ReanalyzeBody, type SpeakerHints,
} from './files.schemas.ts';
import type { StoredResponse } from '../idempotency/idempotency.store.ts';
import { ENGINE_VERSION } from '@rapport/analysis';

const MAX_LABEL_CODE_POINTS = 64;
const MAX_ID_LENGTH = 256;

/** What an upload held, for its Idempotency-Key: the same key with other bytes is another request. */
export interface UploadFingerprint {
  sha256: string;
  sizeBytes: number;
  filename: string;
  fields: Record<string, string>;
}

/**
 * Takes the upload's Idempotency-Key once its body is received: answers the first answer to
 * replay, or null to go on (also without a key); throws when the key is in use or was used with
 * another upload.
 */
export type ClaimKey = (upload: UploadFingerprint) => Promise<StoredResponse | null>;

/** `duplicate`: the workspace already had these bytes, and `media` is the media that has them (decisions §18). */
export type UploadOutcome = { kind: 'stored'; media: Media; duplicate: boolean } | { kind: 'replay'; answer: StoredResponse };

/**
 * What FilesService uses: its stores, the longest media it analyses, the storage quota and the
 * free disk an upload must leave, and the worker's wake-up.
 */
export interface FilesDeps {
  media: MediaStore;
  /** Entity labels: the names the diarization files give speakers (decisions §17). */
  entities: Pick<EntityStore, 'labels'>;
  blobs: BlobStore;
  contentLinks: ContentLinkStore;
  maxMediaSec: number;
  /** Where media is written, and the bytes its disk must keep free (MIN_FREE_DISK_BYTES). */
  mediaDir: string;
  minFreeDiskBytes: number;
  /** The workspace's quotas in force (WorkspaceService.quotas). */
  quotas: (workspaceId: string) => Promise<Quotas>;
  /** What the workspace holds now, counted against its quotas. */
  usage: (workspaceId: string) => Promise<QuotaUsage>;
  /** Called once an analysis was queued, so that the worker takes it at once. */
  wakeWorker: () => void;
  /** Where the diarization files are made, off the event loop (decisions §17 names included). */
  render: Pick<RenderPool, 'run'>;
}

export class FilesService {
  private readonly deps: FilesDeps;
  private readonly media: MediaStore;
  /** The free-space floor, counting the bytes of this process's uploads under way. */
  private readonly disk: DiskSpaceGuard;
  constructor(deps: FilesDeps) {
    this.deps = deps;
    this.media = deps.media;
    this.disk = new DiskSpaceGuard(deps.mediaDir, deps.minFreeDiskBytes);
  }

  async upload(auth: AuthContext, req: FastifyRequest, claimKey: ClaimKey = async () => null): Promise<UploadOutcome> {
    const { blobs } = this.deps;
    // The disk must keep MIN_FREE_DISK_BYTES free after the body, beside the uploads under way,
    // and after each chunk; bytes past that, or past what is left of the workspace's storage
    // quota, are hashed but not written: they may be media the workspace already has, which
    // takes no room (decisions §18); else they are refused once known (and the quota is checked
    // again, exactly, when stored; an attachment by what it adds: upload-quota.ts).
    const announced = Number(req.headers['content-length']);
    const space = await this.disk.admit(Number.isSafeInteger(announced) && announced > 0 ? announced : 0);
    let up: ReceivedUpload;
    let quota: number;
    let used: number;
    try {
      quota = (await this.deps.quotas(auth.workspaceId)).mediaBytes;
      used = (await this.deps.usage(auth.workspaceId)).mediaBytes;
      const allowanceFor = (mediaId: string) => attachAllowance(this.media, auth.workspaceId, mediaId);
      up = await receiveUpload(req, blobs, { maxBytes: Math.max(0, quota - used), allowanceFor, beforeWrite: space.beforeWrite });
    } finally {
      space.release();
    }
    let committedPath: string | null = null;
    let newMediaId: string | null = null;
    try {
      const hints = checkFields(up);
      if (up.sizeBytes === 0) throw new ApiError('VALIDATION_FAILED', 'The file is empty.', { details: [{ path: '/file', message: 'is empty' }] });
      // The bytes received, not only their length, decide whether a key's request is the same.
      const answer = await claimKey({ sha256: up.sha256, sizeBytes: up.sizeBytes, filename: up.filename, fields: up.fields });
      if (answer) {
        await blobs.remove(up.tempPath);
        return { kind: 'replay', answer };
      }
      const mediaId = up.fields.mediaId;
      if (mediaId !== undefined && !(await this.media.exists(auth.workspaceId, mediaId))) throw mediaNotFound(mediaId);
      // Bytes the workspace already has are neither probed, stored, analysed nor charged again;
      // their label and hints are not applied (decisions §18). Checked again when inserting.
      const same = mediaId === undefined ? await this.media.findByContent(auth.workspaceId, up.sha256) : null;
      if (same) {
        await blobs.remove(up.tempPath);
        return { kind: 'stored', media: await this.resource(same), duplicate: true };
      }
      // New bytes that did not fit, on the disk or in the quota: only their start was written, removed below.
      if (up.noRoom) throw up.noRoom;
      if (up.overMaxBytes) throw quotaError(quota, used, up.sizeBytes);
      const detected = await detectMedia(up.tempPath, up.head, up.sizeBytes, this.deps.maxMediaSec);
      if (mediaId !== undefined) {
        if (detected.kind !== 'transcript') {
          // Decisions §19: audio for a transcript uploaded on its own replaces its text-only analysis.
          await attachAudio(this.deps, auth, mediaId, up, { ...detected, kind: detected.kind }, hints, quota);
          return { kind: 'stored', media: await this.get(auth, mediaId), duplicate: false };
        }
        if (!detected.transcript) throw new ApiError('VALIDATION_FAILED', 'The transcript could not be read.', { details: [{ path: '/file', message: 'is no transcript' }] });
        await attachTranscript(this.deps, auth, mediaId, detected.transcript, hints);
        await blobs.remove(up.tempPath);
        return { kind: 'stored', media: await this.get(auth, mediaId), duplicate: false };
      }
      if (hints && detected.kind === 'transcript') {
        throw new ApiError('VALIDATION_FAILED', 'Speaker-count hints are for audio and video: a transcript on its own names its speakers.', {
          details: Object.keys(hints).map((f) => ({ path: `/${f}`, message: 'only applies to audio or video (this file is a transcript)' })),
        });
      }
      const id = newId('med');
      newMediaId = id;
      committedPath = await blobs.commit(up.tempPath, id);
      const { media: record, duplicate } = await this.media.insertUnlessDuplicate({
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
        speakerHints: hints,
      }, quota);
      if (duplicate) {
        // The same bytes were stored by an upload that ran beside this one.
        await blobs.remove(committedPath);
        return { kind: 'stored', media: await this.resource(record), duplicate: true };
      }
      this.deps.wakeWorker();
      // A transcript's speakers are its people already (text-entities.ts); audio has none yet.
      return { kind: 'stored', media: detected.kind === 'transcript' ? await this.resource(record) : toMediaResource(record, new Map()), duplicate: false };
    } catch (err) {
      // A stored file goes with the failed request, unless a row names it after all: a store that
      // committed the insert and then failed to answer (or a failure after the insert). When the
      // row cannot be read, the file is left: the orphan sweeps remove it once no row names it.
      const named = committedPath !== null && newMediaId !== null
        && await this.media.getLight(auth.workspaceId, newMediaId).then((m) => m?.storagePath === committedPath, () => true);
      if (!named) await blobs.remove(committedPath ?? up.tempPath);
      if (err instanceof InsufficientCredits) {
        throw new ApiError('INSUFFICIENT_CREDITS', `Analysing this media needs ${err.needed} credits; ${err.available} available.`);
      }
      if (err instanceof QuotaExceeded) throw quotaError(err.limit, err.used, up.sizeBytes);
      throw err;
    }
  }

  /**
   * Analyses audio or video media again, with the engine of this build, with new hints when the
   * body names any (else the stored ones). Costs what an analysis costs; 409 while the analysis
   * runs or a queued or running job uses the media.
   */
  async reanalyze(auth: AuthContext, id: string, body: ReanalyzeBody): Promise<Media> {
    const current = await this.load(auth, id);
    const hints = hintsFromBody(body, current.speakerHints);
    let outcome;
    try {
      outcome = await this.media.reanalyze(auth.workspaceId, id, { hints, whileUsed: 'refuse' });
    } catch (err) {
      if (err instanceof InsufficientCredits) {
        throw new ApiError('INSUFFICIENT_CREDITS', `Analysing this media again needs ${err.needed} credits; ${err.available} available.`);
      }
      throw err;
    }
    switch (outcome.state) {
      case 'missing':
        throw new ApiError('NOT_FOUND', `No media ${id}.`);
      case 'transcript':
        throw new ApiError('CONFLICT', `Media ${id} is a transcript on its own: it has no audio to analyse.`);
      case 'running':
        throw new ApiError('CONFLICT', `Media ${id} is being analysed right now; ask again once analysis.status is ready or failed.`);
      case 'in_use': {
        const many = outcome.jobs.length > 1;
        throw new ApiError('CONFLICT', `Media ${id} is used by ${many ? 'jobs' : 'job'} ${outcome.jobs.join(', ')} that ${many ? 'are' : 'is'} still queued or running; its speakers cannot change under ${many ? 'them' : 'it'}. Wait or cancel, then ask again.`);
      }
      case 'reanalysing':
        this.deps.wakeWorker();
        return this.resource(outcome.media);
      case 'pending':
        return this.resource(outcome.media);
    }
  }

  async get(auth: AuthContext, id: string): Promise<Media> {
    return this.resource(await this.load(auth, id));
  }

  async list(auth: AuthContext, query: MediaListQuery): Promise<{ data: Media[]; nextCursor: string | null }> {
    try {
      const page = await this.media.list(auth.workspaceId, query.limit ?? 20, query.cursor, query.outdated ? ENGINE_VERSION : undefined);
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
    await this.deps.blobs.remove(deleted.storagePath);
  }

  /**
   * Speech segments by speaker. They exist once analysis is ready: before that the answer is
   * 409 CONFLICT (the media exists, its state does not allow it yet), naming the status so a
   * client knows whether to wait (pending, running) or give up (failed).
   */
  async diarization(auth: AuthContext, id: string): Promise<Diarization> {
    return readyDiarization(await this.loadWhole(auth, id));
  }

  /** The diarization as an RTTM, WebVTT or SRT file (decisions §7), with the transcript's text. */
  async diarizationFile(auth: AuthContext, id: string, format: Exclude<DiarizationFormat, 'json'>): Promise<{ contentType: string; body: Buffer }> {
    // The stored row as text: parsing it and building the file happen in the render worker
    // (issue 41, finding 2); here only the speakers' people are read.
    const row = await this.media.getRow(auth.workspaceId, id, { transcript: format !== 'rttm' });
    if (!row) throw new ApiError('NOT_FOUND', `No media ${id}.`);
    const links = row.analysis_json !== null ? await this.media.links(id) : new Map<number, string>();
    const labels = links.size ? await this.deps.entities.labels(row.workspace_id, [...links.values()]) : {};
    const people = Object.fromEntries(Object.entries(labels).map(([entityId, e]) => [entityId, e.label]));
    const body = await this.deps.render.run({ kind: 'diarization', row, format, links: [...links], people });
    return { contentType: DIARIZATION_CONTENT_TYPES[format], body };
  }

  /** The stored media whose bytes the content route serves. */
  async content(auth: AuthContext, id: string): Promise<MediaRecord> {
    return this.load(auth, id);
  }

  /** A link that streams this media's bytes without the key, for `expiresInSec` (content-links.store.ts). */
  async contentLink(auth: AuthContext, id: string, body: ContentLinkBody): Promise<ContentLink> {
    await this.load(auth, id);
    const expiresAt = Date.now() + (body.expiresInSec ?? CONTENT_LINK_DEFAULT_SEC) * 1000;
    const token = await this.deps.contentLinks.create({ workspaceId: auth.workspaceId, mediaId: id, keyId: auth.keyId, expiresAt });
    return { url: `/v1/files/${encodeURIComponent(id)}/content?token=${token}`, expiresAt: nowIso(expiresAt) };
  }

  /** The authentication a content link's token gives on the content route of `mediaId`, or why it gives none. */
  async authenticateLink(token: string, mediaId: string): Promise<{ auth: AuthContext } | { refused: string }> {
    const check = await this.deps.contentLinks.check(token, mediaId);
    if (check.ok) return { auth: { workspaceId: check.workspaceId, keyId: check.keyId, scope: check.scope } };
    const why = {
      unknown: 'This content link is not valid (unknown, or the key that made it was revoked)',
      expired: 'This content link has expired',
      other_media: 'This content link is for other media',
    }[check.reason];
    return { refused: `${why}; ask for a new one with POST /v1/files/:id/content-links, or send a Service-Api-Key header.` };
  }

  /** The media resource of a stored record (the event streams). */
  resourceOf(m: MediaRecord): Promise<Media> {
    return this.resource(m);
  }

  /** The media without its transcript and analysis (their summary instead: media-summary.ts). */
  private async load(auth: AuthContext, id: string): Promise<MediaRecord> {
    const m = await this.media.getLight(auth.workspaceId, id);
    if (!m) throw new ApiError('NOT_FOUND', `No media ${id}.`);
    return m;
  }

  /** The media with its transcript and analysis (the diarization). */
  private async loadWhole(auth: AuthContext, id: string): Promise<MediaRecord> {
    const m = await this.media.get(auth.workspaceId, id);
    if (!m) throw new ApiError('NOT_FOUND', `No media ${id}.`);
    return m;
  }

  private async resource(m: MediaRecord): Promise<Media> {
    const analysed = m.summary ? m.summary.analysed : m.analysis !== null;
    return toMediaResource(m, analysed ? await this.media.links(m.id) : new Map());
  }
}

/**
 * The text fields of the upload: `label` 1..64 code points, `mediaId` an id, not both; the
 * speaker-count hints (answered).
 */
function checkFields(up: ReceivedUpload): SpeakerHints | null {
  const { hints, details } = hintsFromForm(up.fields);
  const { label, mediaId } = up.fields;
  if (label !== undefined) {
    const n = [...label].length;
    if (n < 1) details.push({ path: '/label', message: `is empty: give 1 to ${MAX_LABEL_CODE_POINTS} characters, or leave the field out` });
    else if (n > MAX_LABEL_CODE_POINTS) details.push({ path: '/label', message: `is ${n} characters long; the limit is ${MAX_LABEL_CODE_POINTS}` });
    if (hasControls(label)) details.push({ path: '/label', message: NO_CONTROLS_MESSAGE });
    if (mediaId !== undefined) details.push({ path: '/label', message: 'cannot be combined with mediaId: the media keeps its own label' });
  }
  if (mediaId !== undefined && (mediaId.length < 1 || mediaId.length > MAX_ID_LENGTH)) {
    details.push({ path: '/mediaId', message: mediaId.length < 1 ? 'is empty: give a media id' : `is ${mediaId.length} characters long; a media id has at most ${MAX_ID_LENGTH}` });
  }
  if (details.length > 0) throw new ApiError('VALIDATION_FAILED', 'The upload is not valid; see details.', { details });
  return hints;
}
