// Uploaded media and their cached analysis. A media row, its credit reservation and its
// analysis task are written in one transaction; the analysis result, the speakers' links to
// entities and the credit charge in another (media-completion.ts). A re-analysis (new hints, a newer engine, an
// attached transcript) resets the analysis, reserves its credits and queues it in one
// transaction, keeping the replaced speakers so that their entities can carry over
// (media-reanalysis.ts; audio for a transcript on its own: audio-attach.ts). Every
// change of an existing row reads it FOR UPDATE first (on PostgreSQL), so that two processes
// (an API process deleting the media, a worker completing its analysis) take turns on it.
import { jsonList, type Sql } from '../store/sql.ts';
import { mediaIdOfFile, namedFiles } from '../store/blob-store.ts';
import { nowIso } from '../ids.ts';
import { enqueueTask, dropTasks } from '../queue/queue.store.ts';
import { releaseCredits, reserveCredits } from '../credits/credits.ledger.ts';
import { decodeCursor, encodeCursor } from '../store/cursor.ts';
import { ENGINE_VERSION, type MediaAnalysis } from '@rapport/analysis';
import { readySpeakers } from './media-speakers.ts';
import type { SpeakerHints } from './files.schemas.ts';
import type { SpeakerLink } from './speaker-links.ts';
import { analysisCost, LIGHT_COLUMNS, summaryJson, toLightMedia, toMedia, type LightMediaRow, type MediaRecord, type MediaRow } from './media-rows.ts';
import { analyseInWorker, OwedTextAnalyses, type TranscriptAnalyser } from './transcript-analysis.ts';
import type { MediaSummary } from './media-summary.ts';
import { newMediaSummary, textAnalysisOfStored, transcriptJsonOf, type StoredTranscript } from './transcript-text.ts';
import { insertTextEntities } from './text-entities.ts';
import { attachAudioRow, type AttachAudioOutcome, type AttachedAudio } from './audio-attach.ts';
import { latestMediaChange, nextMediaChange, recordMediaChange } from './media-changes.ts';
import { QuotaExceeded } from '../workspace/quotas.ts';
import { mediaWithBytes } from './media-duplicates.ts';
import { activeJobsUsing, reanalyzeRow, type AttachTranscriptOutcome, type ReanalyzeOutcome } from './media-reanalysis.ts';
import { completeAnalysisRow } from './media-completion.ts';

export { analysisCost, entityLabel, previousSpeakersJson, toMedia } from './media-rows.ts';
export type { AnalysisStatus, MediaKind, MediaRecord, MediaRow } from './media-rows.ts';
export type { SpeakerLink } from './speaker-links.ts';
export type { AttachTranscriptOutcome, ReanalyzeOutcome } from './media-reanalysis.ts';

/** What a new media row is given; the rest starts empty (its analysis, progress and change number). */
export type NewMedia = Omit<MediaRecord, 'transcript' | 'analysis' | 'analysisError' | 'createdAt' | 'engineVersion' | 'previousSpeakers' | 'speakerHints' | 'analysisStage' | 'analysisProgress' | 'changedSeq' | 'summary'>
  & { transcript: StoredTranscript | null; speakerHints?: SpeakerHints | null };

export interface MediaStore {
  /**
   * Inserts media; audio and video reserve their analysis credits and queue the analysis. The
   * workspace's stored bytes grow by its size; with `quotaBytes`, beyond it nothing is written
   * and QuotaExceeded is thrown.
   */
  insert(m: NewMedia, quotaBytes?: number): Promise<MediaRecord>;
  /** As insert, unless the workspace already has media with these bytes (decisions §18, media-duplicates.ts): then that media, nothing written. */
  insertUnlessDuplicate(m: NewMedia, quotaBytes?: number): Promise<{ media: MediaRecord; duplicate: boolean }>;
  /** The workspace's (oldest) media with these bytes, light (getLight), or null. */
  findByContent(workspaceId: string, sha256: string): Promise<MediaRecord | null>;
  /** The whole record: its transcript and analysis too (jobs, measurements, diarization). */
  get(workspaceId: string, id: string): Promise<MediaRecord | null>;
  /**
   * The analysed speakers (measurements included) of each of these media whose analysis is
   * ready, read without the rest of the analysis or the transcript (an entity's measurements
   * across its appearances: issue 41 parsed each hour's whole row on the event loop).
   */
  readySpeakers(workspaceId: string, ids: readonly string[]): Promise<Map<string, MediaAnalysis['speakers']>>;
  /** The stored row, its JSON columns as text: for work done off the event loop (render-tasks.ts). */
  getRow(workspaceId: string, id: string, opts?: { transcript?: boolean }): Promise<MediaRow | null>;
  /** The record without its transcript and analysis, with their summary (the resource). */
  getLight(workspaceId: string, id: string): Promise<MediaRecord | null>;
  exists(workspaceId: string, id: string): Promise<boolean>;
  /** The file that each of these media's rows (any workspace's) names, by media id, rows unread, in one query by the key: what the sweeps ask of each batch of stored files. */
  storagePaths(ids: readonly string[]): Promise<Map<string, string>>;
  /** Which of these stored files any workspace's media row claims (namedFiles), in one query by media id: the orphan sweeps ask it of each batch (FilesWithRows). */
  filesWithRows(names: readonly string[]): Promise<Set<string>>;
  /** The row names `to`, another name of its file, if it still names `from` (a compare-and-set: files/plain-names.ts): whether it did. */
  renameFile(id: string, from: string, to: string): Promise<boolean>;
  load(id: string): Promise<MediaRecord | null>;
  /** A page of light records (getLight), newest first. */
  list(workspaceId: string, limit: number, cursor: string | undefined, outdatedFor?: string): Promise<{ data: MediaRecord[]; nextCursor: string | null }>;
  /** Media of the workspace changed after `after`, oldest change first (the event streams), light (getLight). */
  changesAfter(workspaceId: string, after: number, limit?: number): Promise<MediaRecord[]>;
  /** The workspace's newest change number: where a stream without Last-Event-ID starts. */
  latestChange(workspaceId: string): Promise<number>;
  attachTranscript(workspaceId: string, id: string, transcript: StoredTranscript): Promise<void>;
  /** The transcript for audio or video media, analysed again with it (as reanalyze, allowed while jobs use the media). */
  attachTranscriptForAnalysis(workspaceId: string, id: string, transcript: StoredTranscript, hints?: SpeakerHints | null): Promise<AttachTranscriptOutcome>;
  reanalyze(workspaceId: string, id: string, change: { hints?: SpeakerHints | null; transcript?: StoredTranscript; whileUsed: 'refuse' | 'allow' }): Promise<ReanalyzeOutcome>;
  /** Audio for a transcript on its own (audio-attach.ts): the media becomes it, analysed again. */
  attachAudio(workspaceId: string, id: string, audio: AttachedAudio, quotaBytes?: number): Promise<AttachAudioOutcome>;
  deleteUnlessInUse(workspaceId: string, id: string): Promise<{ deleted: MediaRecord | null; blockedBy: string[] }>;
  setAnalysisProgress(id: string, stage: string, fraction: number): Promise<void>;
  analysisProgress(id: string): Promise<{ stage: string | null; fraction: number } | null>;
  markAnalysisRunning(id: string): Promise<void>;
  completeAnalysis(id: string, analysis: MediaAnalysis, links: SpeakerLink[], engineVersion?: string | null): Promise<'done' | 'insufficient_credits'>;
  failAnalysis(id: string, error: { code: string; message: string }, engineVersion?: string | null): Promise<void>;
  links(mediaId: string): Promise<Map<number, string>>;
  delete(workspaceId: string, id: string): Promise<MediaRecord | null>;
}

export class SqlMediaStore implements MediaStore {
  private readonly db: Sql;
  private readonly onChange: (workspaceId: string, mediaId: string) => void;
  /** The analyses that transcripts stored before they were analysed owe (transcript-analysis.ts). */
  private readonly owed: OwedTextAnalyses;
  /**
   * `onChange` hears of every numbered change (media-changes.ts) once it is committed;
   * `analyseTranscript` makes an owed text analysis (by default in a worker thread).
   */
  constructor(db: Sql, onChange: (workspaceId: string, mediaId: string) => void = () => undefined, analyseTranscript: TranscriptAnalyser = analyseInWorker) {
    this.db = db;
    this.onChange = onChange;
    this.owed = new OwedTextAnalyses(db, analyseTranscript);
  }

  /** Runs `fn` in a transaction, numbers the changes of the media ids it answers (`numbered`: written numbered); tells `onChange` after the commit. */
  private async changing<T>(fn: (tx: Sql) => Promise<{ out: T; changed: string[]; numbered?: [string, string][] }>): Promise<T> {
    const { out, changed } = await this.db.transaction(async (tx) => {
      const r = await fn(tx);
      const numbered: [string | null, string][] = [...(r.numbered ?? [])];
      for (const id of r.changed) numbered.push([await recordMediaChange(tx, id), id]);
      return { out: r.out, changed: numbered };
    });
    for (const [ws, id] of changed) {
      if (ws === null) continue;
      try {
        this.onChange(ws, id);
      } catch {
        // Listeners are best effort: the change is durable and streams also read the store.
      }
    }
    return out;
  }

  async changesAfter(workspaceId: string, after: number, limit = 100): Promise<MediaRecord[]> {
    return this.light(await this.db.all<LightMediaRow>(`SELECT ${LIGHT_COLUMNS} FROM media WHERE workspace_id = ? AND changed_seq > ? ORDER BY changed_seq LIMIT ?`, workspaceId, after, limit));
  }

  /** Light records (media-summary.ts); a row without its summary yet gets it from its full row, stored. */
  private async light(rows: LightMediaRow[]): Promise<MediaRecord[]> {
    const out: MediaRecord[] = [];
    for (const r of rows) out.push(toLightMedia(r, r.needs_summary ? await this.fillSummary(r.id) : null));
    return out;
  }

  private async fillSummary(id: string): Promise<MediaSummary | null> {
    const full = await this.db.get<MediaRow>('SELECT * FROM media WHERE id = ?', id);
    if (!full) return null;
    const json = summaryJson(full);
    await this.db.run('UPDATE media SET summary_json = ? WHERE id = ? AND summary_json IS NULL', json, id);
    return JSON.parse(json) as MediaSummary;
  }

  async latestChange(workspaceId: string): Promise<number> {
    return latestMediaChange(this.db, workspaceId);
  }

  async insert(m: NewMedia, quotaBytes?: number): Promise<MediaRecord> {
    return (await this.write(m, quotaBytes, false)).media;
  }

  async insertUnlessDuplicate(m: NewMedia, quotaBytes?: number): Promise<{ media: MediaRecord; duplicate: boolean }> {
    return this.write(m, quotaBytes, true);
  }

  async findByContent(workspaceId: string, sha256: string): Promise<MediaRecord | null> {
    const id = await mediaWithBytes(this.db, workspaceId, sha256);
    return id === undefined ? null : this.getLight(workspaceId, id);
  }

  private async write(m: NewMedia, quotaBytes: number | undefined, unlessDuplicate: boolean): Promise<{ media: MediaRecord; duplicate: boolean }> {
    const existing = await this.changing<string | undefined>(async (tx) => {
      const found = unlessDuplicate ? await mediaWithBytes(tx, m.workspaceId, m.sha256, { lock: true }) : undefined;
      if (found !== undefined) return { out: found, changed: [] };
      // The workspace row's lock orders uploads of one workspace: two cannot both take the last bytes.
      const counted = await tx.run(
        'UPDATE workspaces SET media_bytes = media_bytes + ?1 WHERE id = ?2 AND (CAST(?3 AS BIGINT) IS NULL OR media_bytes + ?1 <= CAST(?3 AS BIGINT))',
        m.sizeBytes, m.workspaceId, quotaBytes ?? null,
      );
      if (counted !== 1 && quotaBytes !== undefined) {
        throw new QuotaExceeded('mediaBytes', quotaBytes, (await tx.get<{ n: number }>('SELECT media_bytes AS n FROM workspaces WHERE id = ?', m.workspaceId))?.n ?? 0);
      }
      const analysable = m.kind !== 'transcript';
      if (analysable) await reserveCredits(tx, m.workspaceId, analysisCost(m.durationSec), { mediaId: m.id });
      // Numbered as written: recordMediaChange after would write the row, transcript and all, again
      // (on the embedded store 7 ms for 4 MiB on the event loop: issue 32, finding 1).
      // A transcript on its own is analysed from its cues as it is stored (decisions §19), free.
      const text = !analysable && m.transcript ? textAnalysisOfStored(m.transcript) : null;
      await tx.run(
        `INSERT INTO media (id, workspace_id, kind, filename, content_type, size_bytes, sha256, duration_sec, label, storage_path,
         transcript_json, analysis_status, speaker_hints_json, created_at, summary_json, changed_seq, analysis_json, engine_version, seq)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, nextval('rapport_seq'))`,
        m.id, m.workspaceId, m.kind, m.filename, m.contentType, m.sizeBytes, m.sha256, m.durationSec, m.label, m.storagePath,
        m.transcript ? transcriptJsonOf(m.transcript) : null, text ? 'ready' : m.analysisStatus, m.speakerHints ? JSON.stringify(m.speakerHints) : null, nowIso(),
        JSON.stringify(text ? text.summary : newMediaSummary(m.kind, m.transcript)), await nextMediaChange(tx, m.workspaceId),
        text?.json ?? null, text ? ENGINE_VERSION : null,
      );
      if (text) await insertTextEntities(tx, m.workspaceId, m.id, text.speakers);
      if (analysable) await enqueueTask(tx, 'media.analyze', m.id, m.workspaceId);
      return { out: undefined, changed: [], numbered: [[m.workspaceId, m.id]] };
    });
    if (existing === undefined) return { media: (await this.getLight(m.workspaceId, m.id)) as MediaRecord, duplicate: false };
    const media = await this.getLight(m.workspaceId, existing);
    // Deleted since the transaction: not a duplicate any more, so these bytes are stored.
    return media ? { media, duplicate: true } : this.write(m, quotaBytes, unlessDuplicate);
  }

  async get(workspaceId: string, id: string): Promise<MediaRecord | null> {
    const r = await this.db.get<MediaRow>('SELECT * FROM media WHERE id = ? AND workspace_id = ?', id, workspaceId);
    return r ? toMedia(await this.owed.of(r)) : null;
  }

  readySpeakers(workspaceId: string, ids: readonly string[]): Promise<Map<string, MediaAnalysis['speakers']>> {
    return readySpeakers(this.db, workspaceId, ids);
  }

  async getRow(workspaceId: string, id: string, opts: { transcript?: boolean } = {}): Promise<MediaRow | null> {
    // Without the transcript when it is not wanted (a megabyte less to read and copy), unless
    // there is no analysis: a transcript on its own is its own diarization.
    const columns = opts.transcript === false ? `${LIGHT_COLUMNS}, analysis_json, CASE WHEN analysis_json IS NULL THEN transcript_json END AS transcript_json` : '*';
    const r = await this.db.get<MediaRow>(`SELECT ${columns} FROM media WHERE id = ? AND workspace_id = ?`, id, workspaceId);
    if (!r) return null;
    const row = await this.owed.of(r);
    // Now with an analysis: without the transcript, as the columns above give such a row.
    return opts.transcript === false && row !== r ? { ...row, transcript_json: null } : row;
  }

  async getLight(workspaceId: string, id: string): Promise<MediaRecord | null> {
    const r = await this.db.get<LightMediaRow>(`SELECT ${LIGHT_COLUMNS} FROM media WHERE id = ? AND workspace_id = ?`, id, workspaceId);
    return r ? ((await this.light([r]))[0] ?? null) : null;
  }

  async exists(workspaceId: string, id: string): Promise<boolean> {
    return (await this.db.get('SELECT 1 AS x FROM media WHERE id = ? AND workspace_id = ?', id, workspaceId)) !== undefined;
  }

  async storagePaths(ids: readonly string[]): Promise<Map<string, string>> {
    const rows = ids.length ? await this.db.all<{ id: string; storage_path: string }>(`SELECT id, storage_path FROM media WHERE ${this.db.dialect.inJsonList('id')}`, jsonList(ids)) : [];
    return new Map(rows.map((r) => [r.id, r.storage_path]));
  }

  async filesWithRows(names: readonly string[]): Promise<Set<string>> {
    return namedFiles(names, await this.storagePaths([...new Set(names.map(mediaIdOfFile))]));
  }

  async renameFile(id: string, from: string, to: string): Promise<boolean> {
    // Not a change of the resource, which does not show where its file is: no change number.
    return (await this.db.run('UPDATE media SET storage_path = ? WHERE id = ? AND storage_path = ?', to, id, from)) === 1;
  }

  async load(id: string): Promise<MediaRecord | null> {
    const r = await this.db.get<MediaRow>('SELECT * FROM media WHERE id = ?', id);
    return r ? toMedia(await this.owed.of(r)) : null;
  }

  async list(workspaceId: string, limit: number, cursor: string | undefined, outdatedFor?: string): Promise<{ data: MediaRecord[]; nextCursor: string | null }> {
    const before = cursor ? decodeCursor(cursor) : Number.MAX_SAFE_INTEGER;
    const rows = outdatedFor === undefined
      ? await this.db.all<LightMediaRow>(`SELECT ${LIGHT_COLUMNS} FROM media WHERE workspace_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?`, workspaceId, before, limit + 1)
      : await this.db.all<LightMediaRow>(
          `SELECT ${LIGHT_COLUMNS} FROM media WHERE workspace_id = ? AND seq < ? AND kind <> 'transcript' AND analysis_status IN ('ready', 'failed')
           AND (engine_version IS NULL OR engine_version <> ?) ORDER BY seq DESC LIMIT ?`,
          workspaceId, before, outdatedFor, limit + 1,
        );
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return { data: await this.light(page), nextCursor: rows.length > limit && last ? encodeCursor(last.seq) : null };
  }

  async attachTranscript(workspaceId: string, id: string, transcript: StoredTranscript): Promise<void> {
    await this.changing(async (tx) => {
      // The summary is made again from the whole row when next read (media-summary.ts).
      const n = await tx.run('UPDATE media SET transcript_json = ?, summary_json = NULL WHERE id = ? AND workspace_id = ?', transcriptJsonOf(transcript), id, workspaceId);
      return { out: undefined, changed: n ? [id] : [] };
    });
  }

  async attachTranscriptForAnalysis(workspaceId: string, id: string, transcript: StoredTranscript, hints?: SpeakerHints | null): Promise<AttachTranscriptOutcome> {
    const out = await this.reanalyze(workspaceId, id, { transcript, ...(hints !== undefined ? { hints } : {}), whileUsed: 'allow' });
    // Neither can be (AttachTranscriptOutcome), and neither wrote anything.
    if (out.state === 'transcript' || out.state === 'in_use') throw new Error(`attaching a transcript to media ${id} answered ${out.state}, which it cannot`);
    return out;
  }

  async reanalyze(
    workspaceId: string,
    id: string,
    change: { hints?: SpeakerHints | null; transcript?: StoredTranscript; whileUsed: 'refuse' | 'allow' },
  ): Promise<ReanalyzeOutcome> {
    return this.changing(async (tx) => {
      const out = await reanalyzeRow(tx, workspaceId, id, change);
      return { out, changed: out.state === 'pending' || out.state === 'reanalysing' ? [id] : [] };
    });
  }

  async attachAudio(workspaceId: string, id: string, audio: AttachedAudio, quotaBytes?: number): Promise<AttachAudioOutcome> {
    return this.changing(async (tx) => {
      const out = await attachAudioRow(tx, workspaceId, id, audio, quotaBytes);
      return { out, changed: out.state === 'attached' ? [id] : [] };
    });
  }

  async deleteUnlessInUse(workspaceId: string, id: string): Promise<{ deleted: MediaRecord | null; blockedBy: string[] }> {
    return this.db.transaction(async (tx) => {
      const blockedBy = await activeJobsUsing(tx, workspaceId, id);
      if (blockedBy.length > 0) return { deleted: null, blockedBy };
      return { deleted: await deleteRow(tx, workspaceId, id), blockedBy };
    });
  }

  async setAnalysisProgress(id: string, stage: string, fraction: number): Promise<void> {
    await this.changing(async (tx) => {
      const n = await tx.run("UPDATE media SET analysis_stage = ?, analysis_progress = ? WHERE id = ? AND analysis_status = 'running'", stage, fraction, id);
      return { out: undefined, changed: n ? [id] : [] };
    });
  }

  async analysisProgress(id: string): Promise<{ stage: string | null; fraction: number } | null> {
    const r = await this.db.get<{ analysis_stage: string | null; analysis_progress: number }>('SELECT analysis_stage, analysis_progress FROM media WHERE id = ?', id);
    return r ? { stage: r.analysis_stage, fraction: r.analysis_progress } : null;
  }

  async markAnalysisRunning(id: string): Promise<void> {
    await this.changing(async (tx) => {
      const n = await tx.run(
        "UPDATE media SET analysis_status = 'running', analysis_stage = NULL, analysis_progress = 0 WHERE id = ? AND analysis_status IN ('pending', 'running')",
        id,
      );
      return { out: undefined, changed: n ? [id] : [] };
    });
  }

  async completeAnalysis(id: string, analysis: MediaAnalysis, links: SpeakerLink[], engineVersion: string | null = analysis.engineVersion ?? null): Promise<'done' | 'insufficient_credits'> {
    return this.changing(async (tx) => {
      const out = await completeAnalysisRow(tx, id, analysis, links, engineVersion);
      return { out, changed: out === 'done' ? [id] : [] };
    }).then((out) => (out === 'insufficient_credits' ? 'insufficient_credits' : 'done'));
  }

  async failAnalysis(id: string, error: { code: string; message: string }, engineVersion: string | null = null): Promise<void> {
    await this.changing(async (tx) => {
      const r = await tx.get<MediaRow>(`SELECT * FROM media WHERE id = ?${tx.dialect.forUpdate}`, id);
      if (!r || r.analysis_status === 'ready' || r.analysis_status === 'failed') return { out: undefined, changed: [] };
      await tx.run("UPDATE media SET analysis_status = 'failed', analysis_error = ?, engine_version = ? WHERE id = ?", JSON.stringify(error), engineVersion, id);
      await tx.run('DELETE FROM appearances WHERE media_id = ?', id);
      await releaseCredits(tx, r.workspace_id, analysisCost(r.duration_sec), { mediaId: id });
      await dropTasks(tx, 'media.analyze', id);
      return { out: undefined, changed: [id] };
    });
  }

  async links(mediaId: string): Promise<Map<number, string>> {
    const rows = await this.db.all<{ speaker_index: number; entity_id: string }>('SELECT speaker_index, entity_id FROM appearances WHERE media_id = ?', mediaId);
    return new Map(rows.map((r) => [r.speaker_index, r.entity_id]));
  }

  async delete(workspaceId: string, id: string): Promise<MediaRecord | null> {
    return this.db.transaction((tx) => deleteRow(tx, workspaceId, id));
  }
}

/** Inside a transaction: deletes the media and its appearances, releasing an analysis still owed. */
async function deleteRow(tx: Sql, workspaceId: string, id: string): Promise<MediaRecord | null> {
  const r = await tx.get<MediaRow>(`SELECT * FROM media WHERE id = ? AND workspace_id = ?${tx.dialect.forUpdate}`, id, workspaceId);
  if (!r) return null;
  if (r.analysis_status === 'pending' || r.analysis_status === 'running') {
    await releaseCredits(tx, workspaceId, analysisCost(r.duration_sec), { mediaId: id });
  }
  await dropTasks(tx, 'media.analyze', id);
  await tx.run('DELETE FROM appearances WHERE media_id = ?', id);
  await tx.run('DELETE FROM content_links WHERE media_id = ?', id);
  await tx.run('DELETE FROM media WHERE id = ?', id);
  await tx.run('UPDATE workspaces SET media_bytes = GREATEST(media_bytes - ?, 0) WHERE id = ?', r.size_bytes, workspaceId);
  return toMedia(r, false);
}
