// The re-analysis of one media inside the store's transaction (new hints, a newer engine, an
// attached transcript): its analysis reset, its credits reserved and the analysis queued, the
// replaced speakers kept so that their entities carry over (speaker-links.ts). And which queued
// or running jobs use a media: a re-analysis a client asks for, and a deletion, are refused while
// any does (their speakers would change under them).
import type { Sql } from '../store/sql.ts';
import { enqueueTask, dropTasks } from '../queue/queue.store.ts';
import { reserveCredits } from '../credits/credits.ledger.ts';
import { analysisCost, LIGHT_COLUMNS, previousSpeakersJson, toLightMedia, type LightMediaRow, type MediaRecord, type MediaRow } from './media-rows.ts';
import { pendingSummary } from './media-summary.ts';
import { transcriptJsonOf, type StoredTranscript } from './transcript-text.ts';
import type { SpeakerHints } from './files.schemas.ts';

export type ReanalyzeOutcome =
  | { state: 'missing' | 'running' }
  | { state: 'transcript' }
  | { state: 'in_use'; jobs: string[] }
  | { state: 'pending' | 'reanalysing'; media: MediaRecord };

/**
 * What a transcript attached for analysis answers (MediaStore.attachTranscriptForAnalysis): never
 * `transcript`, as it is attached only to media its caller found audio or video, and no media
 * becomes a transcript (a kind changes only from transcript to audio or video: audio-attach.ts;
 * ids are never given again), nor `in_use`, as it does not wait for jobs (`whileUsed: 'allow'`).
 */
export type AttachTranscriptOutcome = Exclude<ReanalyzeOutcome, { state: 'transcript' } | { state: 'in_use' }>;

/** Queued or running jobs of the workspace whose request names this media (ids are long random tokens). */
export async function activeJobsUsing(tx: Sql, workspaceId: string, mediaId: string): Promise<string[]> {
  const rows = await tx.all<{ id: string }>(
    `SELECT id FROM jobs WHERE workspace_id = ? AND status IN ('queued', 'running') AND ${tx.dialect.position('?', 'request_json')} > 0`,
    workspaceId, JSON.stringify(mediaId),
  );
  return rows.map((r) => r.id);
}

/** Inside a transaction: the re-analysis of one media. */
export async function reanalyzeRow(
  tx: Sql,
  workspaceId: string,
  id: string,
  change: { hints?: SpeakerHints | null; transcript?: StoredTranscript; whileUsed: 'refuse' | 'allow' },
): Promise<ReanalyzeOutcome> {
  const r = await tx.get<MediaRow>(`SELECT * FROM media WHERE id = ? AND workspace_id = ?${tx.dialect.forUpdate}`, id, workspaceId);
  if (!r) return { state: 'missing' };
  if (r.kind === 'transcript') return { state: 'transcript' };
  if (r.analysis_status === 'running') return { state: 'running' };
  const hintsJson = change.hints === undefined ? r.speaker_hints_json : change.hints ? JSON.stringify(change.hints) : null;
  const transcriptJson = change.transcript ? transcriptJsonOf(change.transcript) : r.transcript_json;
  // No analysis while one is owed: no speakers yet (audio and video).
  const summary = pendingSummary(transcriptJson !== null);
  if (r.analysis_status === 'pending') {
    const updated = await tx.get<LightMediaRow>(`UPDATE media SET transcript_json = ?1, speaker_hints_json = ?2, summary_json = ?4 WHERE id = ?3 RETURNING ${LIGHT_COLUMNS}`, transcriptJson, hintsJson, id, summary);
    return { state: 'pending', media: toLightMedia(updated as LightMediaRow, null) };
  }
  if (change.whileUsed === 'refuse') {
    const jobs = await activeJobsUsing(tx, workspaceId, id);
    if (jobs.length > 0) return { state: 'in_use', jobs };
  }
  await reserveCredits(tx, workspaceId, analysisCost(r.duration_sec), { mediaId: id });
  const previous = r.analysis_json
    ? previousSpeakersJson(r.analysis_json, await tx.all<{ speaker_index: number; entity_id: string }>('SELECT speaker_index, entity_id FROM appearances WHERE media_id = ?', id))
    : r.previous_speakers_json;
  const updated = await tx.get<LightMediaRow>(
    `UPDATE media SET transcript_json = ?1, speaker_hints_json = ?2, previous_speakers_json = ?3, analysis_status = 'pending', analysis_error = NULL,
     analysis_json = NULL, engine_version = NULL, analysis_stage = NULL, analysis_progress = 0, summary_json = ?5 WHERE id = ?4 RETURNING ${LIGHT_COLUMNS}`,
    transcriptJson, hintsJson, previous, id, summary,
  );
  await dropTasks(tx, 'media.analyze', id);
  await enqueueTask(tx, 'media.analyze', id, workspaceId);
  return { state: 'reanalysing', media: toLightMedia(updated as LightMediaRow, null) };
}

