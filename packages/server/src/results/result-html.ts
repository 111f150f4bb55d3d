// A stored result as the standalone HTML file of the analysis package (decisions §11 document and
// its figures, drawn from the evidence stored beside it).
import type { MatchingEvidence, ResultDocument } from '@rapport/analysis';
import { conversationPairs, pairRecording } from '@rapport/analysis/render';
import type { RenderPool } from '../render/render-pool.ts';
import type { RenderTask } from '../render/render-tasks.ts';
import type { MediaStore } from '../files/media.store.ts';
import { ApiError } from '../errors.ts';
import type { AuthContext } from '../workspace/auth.ts';
import type { ResultStore } from './results.store.ts';
import type { JobType } from '../jobs/jobs.schemas.ts';

/**
 * `what` names the result in errors and in the footer ("matching result", "report"). The
 * recordings pairs share give the turns drawn under their `conversation` figure, as in the
 * dashboard (one renderer: pair-timeline.ts); a recording deleted since is left out.
 */
export async function resultHtml(results: ResultStore, media: Pick<MediaStore, 'getRow'>, render: Pick<RenderPool, 'run'>, auth: AuthContext, id: string, kind: JobType, what: string): Promise<Buffer> {
  const r = await results.get(auth.workspaceId, id, kind);
  if (!r) throw new ApiError('NOT_FOUND', `No ${what} ${id}.`);
  const payload = JSON.parse(r.payloadJson) as { json?: ResultDocument | null; createdAt?: string; label?: string };
  if (!payload.json) throw new ApiError('CONFLICT', `The ${what} ${id} holds no document to render.`);
  const evidence = r.evidenceJson ? (JSON.parse(r.evidenceJson) as MatchingEvidence) : null;
  const footer = `Rapport ${what} ${id}${payload.label ? ` (${payload.label})` : ''}${payload.createdAt ? `, ${payload.createdAt}` : ''}. Every figure comes from the measurements of the recordings; scores describe behavior in these recordings, not personality or worth.`;
  // The shared recordings' analyses go to the render worker as stored text: parsing an hour's
  // analysis and drawing its turns happen there (issue 41, finding 2).
  const shared: Extract<RenderTask, { kind: 'html' }>['shared'] = {};
  for (const pair of evidence ? conversationPairs(payload.json, evidence) : []) {
    const mediaId = pair ? pairRecording(pair) : null;
    if (!mediaId || shared[mediaId]) continue;
    const row = await media.getRow(auth.workspaceId, mediaId, { transcript: false });
    if (row?.analysis_json) shared[mediaId] = { durationSec: row.duration_sec, analysisJson: row.analysis_json };
  }
  return render.run({ kind: 'html', doc: payload.json, evidence, footer, shared });
}
