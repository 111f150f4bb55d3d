// The analysed speakers of media, read without the rest of their analysis or their transcript:
// an entity's measurements across its appearances (metrics.service.ts) parsed each hour's whole
// row on the event loop before (issue 41: 1 to 2 s for 20 appearances on the embedded store).
import { upgradeCachedAnalysis, type MediaAnalysis } from '@rapport/analysis';
import type { Sql } from '../store/sql.ts';

export async function readySpeakers(db: Sql, workspaceId: string, ids: readonly string[]): Promise<Map<string, MediaAnalysis['speakers']>> {
  const out = new Map<string, MediaAnalysis['speakers']>();
  const d = db.dialect;
  // One statement per media: the engine parses each analysis (in C, or in PostgreSQL's own
  // process), and no statement grows with the number of media (DATABASE_TIMEOUT_SEC).
  for (const id of new Set(ids)) {
    // A turn of the event loop between two: the embedded engine's statements run on it.
    if (out.size > 0) await new Promise((resolve) => setImmediate(resolve));
    const r = await db.get<{ speakers: string | null; method: string | null }>(
      `SELECT ${d.jsonMember('analysis_json', 'speakers')} AS speakers, ${d.jsonMember('analysis_json', 'method')} AS method
       FROM media WHERE id = ? AND workspace_id = ? AND analysis_status = 'ready' AND analysis_json IS NOT NULL`,
      id, workspaceId,
    );
    if (!r || r.speakers === null || r.method === null) continue;
    // Through the engine's upgrade, as every read of an analysis (media-rows.ts): it needs only the method and the speakers.
    const partial = { method: JSON.parse(r.method), speakers: JSON.parse(r.speakers) } as Pick<MediaAnalysis, 'method' | 'speakers'>;
    out.set(id, upgradeCachedAnalysis(partial as MediaAnalysis).speakers);
  }
  return out;
}
