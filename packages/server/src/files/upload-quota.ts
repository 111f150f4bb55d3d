// The workspace's storage quota (MEDIA_QUOTA_BYTES) while an upload's body arrives: what the
// stream may write before it is known what the file is, and the 409 when it does not fit. The
// store counts exactly when the row is written (media.store.ts, audio-attach.ts); this bound only
// keeps a file that cannot fit from being written whole first.
import { ApiError } from '../errors.ts';
import { MAX_TRANSCRIPT_BYTES } from './media-probe.ts';
import type { MediaStore } from './media.store.ts';

/** 409 QUOTA_EXCEEDED for the workspace's storage quota. */
export function quotaError(quota: number, used: number, sizeBytes?: number): ApiError {
  const size = sizeBytes === undefined ? '' : ` This file has ${sizeBytes} bytes.`;
  return new ApiError(
    'QUOTA_EXCEEDED',
    `This workspace stores ${used} bytes of media of its ${quota}-byte quota (MEDIA_QUOTA_BYTES, or the operator's \`rapport workspace limits --media-bytes\`); the upload does not fit.${size} Delete media to make room.`,
  );
}

/**
 * What an upload naming `mediaId` may write beyond the room the quota leaves, as the store will
 * count it: audio for a transcript on its own replaces the transcript's file (counted: audio less
 * transcript), and a transcript attached to audio or video is kept in the row (counted: nothing;
 * any other file sent for such media is refused with 400 once detected). Bounded by the room left
 * alone, as new media, both were refused 409 where they fit.
 */
export async function attachAllowance(media: Pick<MediaStore, 'getLight'>, workspaceId: string, mediaId: string): Promise<number> {
  const target = await media.getLight(workspaceId, mediaId);
  if (!target) return 0;
  return target.kind === 'transcript' ? target.sizeBytes : MAX_TRANSCRIPT_BYTES;
}
