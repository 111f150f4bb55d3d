// The people of a transcript on its own (decisions §19): each named speaker becomes an entity by
// its name, with no voice to link. Its voiceprint is empty, so no recording is ever linked to it
// by voice (linkSpeakers compares voiceprints of one length only); yet it is a known entity, so
// that audio attached to the transcript later carries it over to the voice that speaks at its
// times (carriedEntities), which then gives it its first voiceprint (speakerLinks).
import { newId, nowIso } from '../ids.ts';
import type { Sql } from '../store/sql.ts';
import { entityLabel } from './media-rows.ts';
import type { TextSpeaker } from './transcript-text.ts';

/** Inside the transaction that stores the transcript's row: its entities and their appearances. */
export async function insertTextEntities(tx: Sql, workspaceId: string, mediaId: string, speakers: readonly TextSpeaker[]): Promise<void> {
  const now = nowIso();
  for (const s of speakers) {
    const label = entityLabel(s.label);
    // An unnamed speaker has no name to be a person by, and no voice: it stays unlinked.
    if (label === null) continue;
    const entityId = newId('ent');
    await tx.run(
      `INSERT INTO entities (id, workspace_id, label, tags_json, voiceprint_json, created_at, updated_at, seq)
       VALUES (?, ?, ?, ?, ?, ?, ?, nextval('rapport_seq'))`,
      entityId, workspaceId, label, '[]', '[]', now, now,
    );
    await tx.run('INSERT INTO appearances (entity_id, media_id, speaker_index, speech_sec, workspace_id) VALUES (?, ?, ?, ?, ?)', entityId, mediaId, s.index, s.speechSec, workspaceId);
  }
}
