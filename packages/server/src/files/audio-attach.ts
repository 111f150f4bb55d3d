// Audio for a transcript uploaded on its own (decisions §19: `mediaId` on the audio upload). The
// media becomes that audio with its transcript attached, and is analysed from the audio as any
// upload with a transcript: the text-only analysis is replaced, and the transcript's people
// carry over to the voices that speak at their times (their appearances become the previous
// speakers of a re-analysis, speaker-links.ts), so they keep their ids and gain a voice.
import type { Sql } from '../store/sql.ts';
import { enqueueTask, dropTasks } from '../queue/queue.store.ts';
import { reserveCredits } from '../credits/credits.ledger.ts';
import { QuotaExceeded } from '../workspace/quotas.ts';
import { analysisCost, LIGHT_COLUMNS, previousSpeakersJson, toLightMedia, type LightMediaRow, type MediaKind, type MediaRecord, type MediaRow } from './media-rows.ts';
import { pendingSummary } from './media-summary.ts';
import type { SpeakerHints } from './files.schemas.ts';

/** The stored audio that replaces the transcript's file. */
export interface AttachedAudio {
  kind: Exclude<MediaKind, 'transcript'>;
  filename: string;
  contentType: string;
  sizeBytes: number;
  sha256: string;
  durationSec: number | null;
  storagePath: string;
  /** The upload's speaker-count hints, for this and every later analysis. */
  speakerHints: SpeakerHints | null;
}

export type AttachAudioOutcome =
  | { state: 'missing' }
  /** The media is audio or video (`kind`) already: another attachment won, or it never was a transcript. */
  | { state: 'not_transcript'; kind: Exclude<MediaKind, 'transcript'> }
  /** `replacedPath`: the transcript's own file, no longer needed (its text stays in the row). */
  | { state: 'attached'; media: MediaRecord; replacedPath: string };

/**
 * Inside a transaction: the transcript media `id` becomes `audio`, its analysis owed. Its credits
 * are reserved and its stored bytes counted as for an upload (QuotaExceeded past `quotaBytes`).
 */
export async function attachAudioRow(tx: Sql, workspaceId: string, id: string, audio: AttachedAudio, quotaBytes?: number): Promise<AttachAudioOutcome> {
  const r = await tx.get<MediaRow>(`SELECT * FROM media WHERE id = ? AND workspace_id = ?${tx.dialect.forUpdate}`, id, workspaceId);
  if (!r) return { state: 'missing' };
  if (r.kind !== 'transcript') return { state: 'not_transcript', kind: r.kind };
  const grow = audio.sizeBytes - r.size_bytes;
  const counted = await tx.run(
    'UPDATE workspaces SET media_bytes = GREATEST(media_bytes + ?1, 0) WHERE id = ?2 AND (CAST(?3 AS BIGINT) IS NULL OR media_bytes + ?1 <= CAST(?3 AS BIGINT))',
    grow, workspaceId, quotaBytes ?? null,
  );
  if (counted !== 1 && quotaBytes !== undefined) {
    throw new QuotaExceeded('mediaBytes', quotaBytes, (await tx.get<{ n: number }>('SELECT media_bytes AS n FROM workspaces WHERE id = ?', workspaceId))?.n ?? 0);
  }
  await reserveCredits(tx, workspaceId, analysisCost(audio.durationSec), { mediaId: id });
  const links = await tx.all<{ speaker_index: number; entity_id: string }>('SELECT speaker_index, entity_id FROM appearances WHERE media_id = ?', id);
  const previous = r.analysis_json ? previousSpeakersJson(r.analysis_json, links) : null;
  const updated = await tx.get<LightMediaRow>(
    `UPDATE media SET kind = ?1, filename = ?2, content_type = ?3, size_bytes = ?4, sha256 = ?5, duration_sec = ?6, storage_path = ?7,
     previous_speakers_json = ?8, analysis_status = 'pending', analysis_error = NULL, analysis_json = NULL, engine_version = NULL,
     analysis_stage = NULL, analysis_progress = 0, summary_json = ?9, speaker_hints_json = ?11 WHERE id = ?10 RETURNING ${LIGHT_COLUMNS}`,
    audio.kind, audio.filename, audio.contentType, audio.sizeBytes, audio.sha256, audio.durationSec, audio.storagePath, previous, pendingSummary(true), id,
    audio.speakerHints ? JSON.stringify(audio.speakerHints) : null,
  );
  await dropTasks(tx, 'media.analyze', id);
  await enqueueTask(tx, 'media.analyze', id, workspaceId);
  return { state: 'attached', media: toLightMedia(updated as LightMediaRow, null), replacedPath: r.storage_path };
}
