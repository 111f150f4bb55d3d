// A media's finished analysis, stored inside the store's transaction (MediaStore.completeAnalysis):
// charged by the duration it decoded to (what it costs beyond the reservation is reserved first,
// refused when the workspace cannot pay it), the speakers linked to their entities (new ones
// created, existing ones given the new voiceprint and a label they lack), the analysis and its
// summary written, unused credits released and the task dropped.
import type { Sql } from '../store/sql.ts';
import { nowIso } from '../ids.ts';
import { dropTasks } from '../queue/queue.store.ts';
import { chargeCredits, InsufficientCredits, releaseCredits, reserveCredits } from '../credits/credits.ledger.ts';
import type { MediaAnalysis } from '@rapport/analysis';
import type { SpeakerLink } from './speaker-links.ts';
import { analysisCost, entityLabel, type MediaRow } from './media-rows.ts';
import { analysisSummary } from './media-summary.ts';
import { freezeAutoNames } from '../entities/auto-name.ts';

/** Inside a transaction: stores the analysis ('done'), or answers why not ('skipped', 'insufficient_credits'). */
export async function completeAnalysisRow(tx: Sql, id: string, analysis: MediaAnalysis, links: SpeakerLink[], engineVersion: string | null): Promise<'done' | 'skipped' | 'insufficient_credits'> {
  const r = await tx.get<MediaRow>(`SELECT * FROM media WHERE id = ?${tx.dialect.forUpdate}`, id);
  if (!r || r.analysis_status === 'ready' || r.analysis_status === 'failed') return 'skipped';
  // Charged by the decoded duration.
  const extra = analysisCost(analysis.durationSec) - analysisCost(r.duration_sec);
  if (extra > 0) {
    try {
      await reserveCredits(tx, r.workspace_id, extra, { mediaId: id });
    } catch (err) {
      if (!(err instanceof InsufficientCredits)) throw err;
      return 'insufficient_credits';
    }
  }
  const now = nowIso();
  await freezeAutoNames(tx, links.filter((l) => !l.create).map((l) => l.entityId));
  await tx.run('DELETE FROM appearances WHERE media_id = ?', id);
  for (const link of links) {
    if (link.create) {
      await tx.run(
        `INSERT INTO entities (id, workspace_id, label, tags_json, voiceprint_json, auto_name, created_at, updated_at, seq)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, nextval('rapport_seq'))`,
        link.entityId, r.workspace_id, entityLabel(link.create.label), '[]', JSON.stringify(link.create.voiceprint),
        `Speaker ${link.speakerIndex + 1} in ${r.label ?? r.filename}`, now, now,
      );
    } else {
      await tx.run(
        'UPDATE entities SET voiceprint_json = COALESCE(?, voiceprint_json), updated_at = ? WHERE id = ?',
        link.voiceprint ? JSON.stringify(link.voiceprint) : null, now, link.entityId,
      );
      const label = entityLabel(analysis.speakers[link.speakerIndex]?.label ?? null);
      if (label) await tx.run('UPDATE entities SET label = ? WHERE id = ? AND label IS NULL', label, link.entityId);
    }
    await tx.run(
      `INSERT INTO appearances (entity_id, media_id, speaker_index, speech_sec, workspace_id) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (media_id, speaker_index) DO UPDATE SET entity_id = excluded.entity_id, speech_sec = excluded.speech_sec, workspace_id = excluded.workspace_id`,
      link.entityId, id, link.speakerIndex, link.speechSec, r.workspace_id,
    );
  }
  await tx.run(
    `UPDATE media SET analysis_status = 'ready', analysis_json = ?1, engine_version = ?2, previous_speakers_json = NULL,
     duration_sec = ?3, summary_json = ?5 WHERE id = ?4`,
    JSON.stringify(analysis), engineVersion, analysis.durationSec, id, analysisSummary(analysis, r.transcript_json !== null),
  );
  await chargeCredits(tx, r.workspace_id, analysisCost(analysis.durationSec), { mediaId: id });
  const unused = analysisCost(r.duration_sec) - analysisCost(analysis.durationSec);
  if (unused > 0) await releaseCredits(tx, r.workspace_id, unused, { mediaId: id });
  await dropTasks(tx, 'media.analyze', id);
  return 'done';
}
