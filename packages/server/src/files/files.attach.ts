// Uploads with `mediaId`, attached to media the workspace has: audio or video to a transcript
// uploaded on its own (decisions §19; the row's change is audio-attach.ts), a transcript to audio
// or video. Each checks its target, changes the row in one store call, and tells the worker when
// an analysis was queued; FilesService.upload reads the media it answers afterwards.
import path from 'node:path';
import { ApiError } from '../errors.ts';
import type { AuthContext } from '../workspace/auth.ts';
import { analysisCost, type MediaKind, type MediaStore } from './media.store.ts';
import type { BlobStore } from '../store/blob-store.ts';
import type { ReceivedUpload } from './upload-stream.ts';
import type { TranscriptText } from './transcript-text.ts';
import type { SpeakerHints } from './files.schemas.ts';
import { givePlainName } from './plain-names.ts';

/** What attaching uses: the media rows, the stored files, and the worker's wake-up. */
export interface AttachDeps {
  media: MediaStore;
  blobs: BlobStore;
  wakeWorker: () => void;
}

/** The audio or video received, as detected from its bytes. */
export interface DetectedAudio {
  kind: 'audio' | 'video';
  contentType: string;
  durationSec: number | null;
}

/** A `mediaId` the workspace has no media of (upload() checks it first; an attachment again, as it may have gone since). */
export function mediaNotFound(mediaId: string): ApiError {
  return new ApiError('REFERENCE_NOT_FOUND', `Media ${mediaId} does not exist in this workspace.`, {
    details: [{ path: '/mediaId', message: `media ${mediaId} does not exist in this workspace` }],
  });
}

/** Audio or video sent with the `mediaId` of audio or video media (`kind`): only a transcript on its own takes audio. */
function notATranscript(kind: Exclude<MediaKind, 'transcript'>, detected: DetectedAudio): ApiError {
  return new ApiError('VALIDATION_FAILED', 'mediaId with audio or video is only for a transcript uploaded on its own; send a transcript to attach it to this media.', {
    details: [{ path: '/mediaId', message: `is ${kind} media; audio is attached only to a transcript uploaded on its own (this file is ${detected.kind}, ${detected.contentType})` }],
  });
}

/**
 * The audio of a transcript on its own: it replaces the transcript's file (its text stays in the
 * row). Stored beside it under a new name (`<id>.<token>`), then named by the row, and only then
 * does it take the media's plain name `<id>` over the transcript's file (plain-names.ts), the row
 * naming that: at every step the row names a file that is there, with its bytes, so a crash loses
 * nothing and leaves at worst a name no row names, which the orphan sweeps remove, or a row
 * naming the name beside, which the next sweep gives the plain name. (Before, the transcript's
 * file was moved into `tmp/` first, where the start-up sweep took it for a crashed upload's, and
 * the audio stored under its name.) Two attachments at once store two files: the one whose row is
 * written stays, and the other upload is answered what it would be a moment later: 400
 * VALIDATION_FAILED, the media being audio now (as one deleted meanwhile is answered 400
 * REFERENCE_NOT_FOUND).
 */
export async function attachAudio(deps: AttachDeps, auth: AuthContext, mediaId: string, up: ReceivedUpload, detected: DetectedAudio, hints: SpeakerHints | null, quota: number): Promise<void> {
  const target = await deps.media.getLight(auth.workspaceId, mediaId);
  if (!target) throw mediaNotFound(mediaId);
  if (target.kind !== 'transcript') throw notATranscript(target.kind, detected);
  // A commit that fails leaves the upload in `tmp/`, which upload() removes.
  const finalPath = await deps.blobs.commit(up.tempPath, mediaId, { beside: true });
  let replaced: string;
  try {
    const out = await deps.media.attachAudio(auth.workspaceId, mediaId, {
      kind: detected.kind, filename: up.filename, contentType: detected.contentType, sizeBytes: up.sizeBytes, sha256: up.sha256, durationSec: detected.durationSec, storagePath: finalPath, speakerHints: hints,
    }, quota);
    // The media changed since it was checked (another attachment won, or it was deleted): the
    // answer is the one this upload would get a moment later, not a race's own.
    if (out.state === 'missing') throw mediaNotFound(mediaId);
    if (out.state === 'not_transcript') throw notATranscript(out.kind, detected);
    replaced = out.replacedPath;
  } catch (err) {
    // The media is as it was, its transcript's file untouched; the audio's goes, unless the row
    // names it after all (a store that committed, then failed to answer). When that cannot be
    // read, it is left: the orphan sweeps remove it once no row names it.
    const named = await deps.media.getLight(auth.workspaceId, mediaId).then((m) => m?.storagePath === finalPath, () => true);
    if (!named) await deps.blobs.remove(finalPath);
    throw err;
  }
  // The row names the audio now, by a name that versions before names beside take for an orphan's:
  // it takes the plain name at once, over the transcript's file, which is no row's now. When it
  // cannot, the next sweep gives it (an older version's sweep waits an hour); the audio is
  // attached either way.
  await givePlainName(deps, mediaId, finalPath).catch(() => false);
  // A transcript's file under another name than the plain one goes too (a plain one is only ever
  // replaced: plain-names.ts); one that cannot be removed is left to the orphan sweeps.
  if (path.basename(replaced) !== mediaId) await deps.blobs.remove(replaced).catch(() => undefined);
  deps.wakeWorker();
}

/** A transcript for audio or video media: attached, and the media analysed again with it once its analysis is over. */
export async function attachTranscript(deps: AttachDeps, auth: AuthContext, mediaId: string, transcript: TranscriptText, hints: SpeakerHints | null): Promise<void> {
  const target = await deps.media.getLight(auth.workspaceId, mediaId);
  if (!target) throw mediaNotFound(mediaId);
  if (target.kind === 'transcript') {
    throw new ApiError('VALIDATION_FAILED', 'A transcript can only be attached to audio or video media.', {
      details: [{ path: '/mediaId', message: 'is a transcript; attach transcripts to audio or video media' }],
    });
  }
  // Hints sent with the transcript replace the stored ones; without, the stored ones stay.
  const outcome = (await deps.media.attachTranscriptForAnalysis(auth.workspaceId, mediaId, transcript, hints ?? undefined)).state;
  if (outcome === 'missing') throw mediaNotFound(mediaId);
  if (outcome === 'running') {
    throw new ApiError('CONFLICT', `Media ${mediaId} is being analysed right now; attach the transcript once analysis.status is ready or failed (it is then analysed again with the transcript, for ${analysisCost(target.durationSec)} credits).`);
  }
  if (outcome === 'reanalysing') deps.wakeWorker();
}
