// Uploaded media and their cached analysis. A media row, its credit reservation and its
// analysis task are written in one transaction; the analysis result, the speakers' links to
// entities and the credit charge in another. A re-analysis (new hints, a newer engine, an
// attached transcript) resets the analysis, reserves its credits and queues it in one
// transaction, keeping the replaced speakers so that their entities can carry over.
import type { SqliteDb } from '../store/sqlite.ts';
import { nowIso } from '../ids.ts';
import { enqueueTask, dropTasks } from '../queue/queue.store.ts';
import { chargeCredits, InsufficientCredits, releaseCredits, reserveCredits } from '../credits/credits.ledger.ts';
import { decodeCursor, encodeCursor } from '../store/cursor.ts';
import type { MediaAnalysis } from '@rapport/analysis';
import type { SpeakerHints } from './files.schemas.ts';
import type { SpeakerLink } from './speaker-links.ts';
import { analysisCost, entityLabel, LIGHT_COLUMNS, previousSpeakersJson, summaryJson, toLightMedia, toMedia, type LightMediaRow, type MediaRecord, type MediaRow } from './media-rows.ts';
import { analysisSummary, pendingSummary, type summarize } from './media-summary.ts';
import { newMediaSummary, transcriptJsonOf, type StoredTranscript } from './transcript-text.ts';
import { latestMediaChange, nextMediaChange, recordMediaChange } from './media-changes.ts';
import { QuotaExceeded } from '../workspace/quotas.ts';

export { analysisCost, entityLabel, previousSpeakersJson, toMedia } from './media-rows.ts';
export type { AnalysisStatus, MediaKind, MediaRecord, MediaRow } from './media-rows.ts';
export type { SpeakerLink } from './speaker-links.ts';

export type ReanalyzeOutcome =
  | { state: 'missing' | 'running' | 'transcript' }
  | { state: 'in_use'; jobs: string[] }
  | { state: 'pending' | 'reanalysing'; media: MediaRecord };

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
  /** The whole record: its transcript and analysis too (jobs, measurements, diarization). */
  get(workspaceId: string, id: string): Promise<MediaRecord | null>;
  /** The record without its transcript and analysis, with their summary (the resource). */
  getLight(workspaceId: string, id: string): Promise<MediaRecord | null>;
  exists(workspaceId: string, id: string): Promise<boolean>;
  load(id: string): Promise<MediaRecord | null>;
  /** A page of light records (getLight), newest first. */
  list(workspaceId: string, limit: number, cursor: string | undefined, outdatedFor?: string): Promise<{ data: MediaRecord[]; nextCursor: string | null }>;
  /** Media of the workspace changed after `after`, oldest change first (the event streams), light (getLight). */
  changesAfter(workspaceId: string, after: number, limit?: number): Promise<MediaRecord[]>;
  /** The workspace's newest change number: where a stream without Last-Event-ID starts. */
  latestChange(workspaceId: string): Promise<number>;
  attachTranscript(workspaceId: string, id: string, transcript: StoredTranscript): Promise<void>;
  attachTranscriptForAnalysis(workspaceId: string, id: string, transcript: StoredTranscript, hints?: SpeakerHints | null): Promise<ReanalyzeOutcome>;
  reanalyze(workspaceId: string, id: string, change: { hints?: SpeakerHints | null; transcript?: StoredTranscript; whileUsed: 'refuse' | 'allow' }): Promise<ReanalyzeOutcome>;
  deleteUnlessInUse(workspaceId: string, id: string): Promise<{ deleted: MediaRecord | null; blockedBy: string[] }>;
  setAnalysisProgress(id: string, stage: string, fraction: number): Promise<void>;
  analysisProgress(id: string): Promise<{ stage: string | null; fraction: number } | null>;
  markAnalysisRunning(id: string): Promise<void>;
  completeAnalysis(id: string, analysis: MediaAnalysis, links: SpeakerLink[], engineVersion?: string | null): Promise<'done' | 'insufficient_credits'>;
  failAnalysis(id: string, error: { code: string; message: string }, engineVersion?: string | null): Promise<void>;
  links(mediaId: string): Promise<Map<number, string>>;
  delete(workspaceId: string, id: string): Promise<MediaRecord | null>;
}

export class SqliteMediaStore implements MediaStore {
  private readonly db: SqliteDb;
  private readonly onChange: (workspaceId: string, mediaId: string) => void;
  /** `onChange` hears of every numbered change (media-changes.ts) once it is committed. */
  constructor(db: SqliteDb, onChange: (workspaceId: string, mediaId: string) => void = () => undefined) {
    this.db = db;
    this.onChange = onChange;
  }

  /** Runs `fn` in a transaction, numbers the changes of the media ids it answers (`numbered`: written numbered); tells `onChange` after the commit. */
  private changing<T>(fn: () => { out: T; changed: string[]; numbered?: [string, string][] }): T {
    const { out, changed } = this.db.transaction(() => {
      const r = fn();
      const workspaces = [...(r.numbered ?? []), ...r.changed.map((id) => [recordMediaChange(this.db, id), id] as const)];
      return { out: r.out, changed: workspaces };
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

  /** Media of the workspace changed after `after`, oldest change first (the event streams). */
  async changesAfter(workspaceId: string, after: number, limit = 100): Promise<MediaRecord[]> {
    return this.light(`SELECT ${LIGHT_COLUMNS} FROM media WHERE workspace_id = ? AND changed_seq > ? ORDER BY changed_seq LIMIT ?`, workspaceId, after, limit);
  }

  /** Light records (media-summary.ts); a row without its summary yet gets it from its full row, stored. */
  private light(sql: string, ...params: (string | number)[]): MediaRecord[] {
    return this.db.all<LightMediaRow>(sql, ...params).map((r) => this.toLight(r));
  }

  private toLight(r: LightMediaRow): MediaRecord {
    return toLightMedia(r, r.needs_summary ? this.fillSummary(r.id) : null);
  }

  private fillSummary(id: string): ReturnType<typeof summarize> | null {
    const full = this.db.get<MediaRow>('SELECT * FROM media WHERE id = ?', id);
    if (!full) return null;
    const json = summaryJson(full);
    this.db.run('UPDATE media SET summary_json = ? WHERE id = ? AND summary_json IS NULL', json, id);
    return JSON.parse(json) as ReturnType<typeof summarize>;
  }

  async latestChange(workspaceId: string): Promise<number> {
    return latestMediaChange(this.db, workspaceId);
  }

  /** Inserts media; audio and video reserve their analysis credits and queue the analysis. */
  async insert(m: NewMedia, quotaBytes?: number): Promise<MediaRecord> {
    this.changing(() => {
      const counted = this.db.run(
        'UPDATE workspaces SET media_bytes = media_bytes + ? WHERE id = ? AND (? IS NULL OR media_bytes + ? <= ?)',
        m.sizeBytes, m.workspaceId, quotaBytes ?? null, m.sizeBytes, quotaBytes ?? null,
      );
      if (counted !== 1 && quotaBytes !== undefined) {
        throw new QuotaExceeded('mediaBytes', quotaBytes, this.db.get<{ n: number }>('SELECT media_bytes AS n FROM workspaces WHERE id = ?', m.workspaceId)?.n ?? 0);
      }
      const analysable = m.kind !== 'transcript';
      if (analysable) reserveCredits(this.db, m.workspaceId, analysisCost(m.durationSec), { mediaId: m.id });
      // Numbered as written: recordMediaChange after would write the row, transcript and all, again (7 ms for 4 MiB).
      this.db.run(
        `INSERT INTO media (id, workspace_id, kind, filename, content_type, size_bytes, sha256, duration_sec, label, storage_path,
         transcript_json, analysis_status, speaker_hints_json, created_at, seq, summary_json, changed_seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        m.id, m.workspaceId, m.kind, m.filename, m.contentType, m.sizeBytes, m.sha256, m.durationSec, m.label, m.storagePath,
        m.transcript ? transcriptJsonOf(m.transcript) : null, m.analysisStatus, m.speakerHints ? JSON.stringify(m.speakerHints) : null, nowIso(), this.db.nextSeq(),
        JSON.stringify(newMediaSummary(m.kind, m.transcript)), nextMediaChange(this.db, m.workspaceId),
      );
      if (analysable) enqueueTask(this.db, 'media.analyze', m.id, m.workspaceId);
      return { out: undefined, changed: [], numbered: [[m.workspaceId, m.id]] };
    });
    return (await this.getLight(m.workspaceId, m.id)) as MediaRecord;
  }

  async get(workspaceId: string, id: string): Promise<MediaRecord | null> {
    const r = this.db.get<MediaRow>('SELECT * FROM media WHERE id = ? AND workspace_id = ?', id, workspaceId);
    return r ? toMedia(r) : null;
  }

  async getLight(workspaceId: string, id: string): Promise<MediaRecord | null> {
    return this.light(`SELECT ${LIGHT_COLUMNS} FROM media WHERE id = ? AND workspace_id = ?`, id, workspaceId)[0] ?? null;
  }

  async exists(workspaceId: string, id: string): Promise<boolean> {
    return this.db.get('SELECT 1 AS x FROM media WHERE id = ? AND workspace_id = ?', id, workspaceId) !== undefined;
  }

  async load(id: string): Promise<MediaRecord | null> {
    const r = this.db.get<MediaRow>('SELECT * FROM media WHERE id = ?', id);
    return r ? toMedia(r) : null;
  }

  /**
   * A page of media, newest first. `outdatedFor`: only audio and video whose analysis ended
   * (ready or failed) with an engine version other than this one, or with none recorded.
   */
  async list(workspaceId: string, limit: number, cursor: string | undefined, outdatedFor?: string): Promise<{ data: MediaRecord[]; nextCursor: string | null }> {
    const before = cursor ? decodeCursor(cursor) : Number.MAX_SAFE_INTEGER;
    const rows = outdatedFor === undefined
      ? this.db.all<LightMediaRow>(`SELECT ${LIGHT_COLUMNS} FROM media WHERE workspace_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?`, workspaceId, before, limit + 1)
      : this.db.all<LightMediaRow>(
          `SELECT ${LIGHT_COLUMNS} FROM media WHERE workspace_id = ? AND seq < ? AND kind <> 'transcript' AND analysis_status IN ('ready', 'failed')
           AND (engine_version IS NULL OR engine_version <> ?) ORDER BY seq DESC LIMIT ?`,
          workspaceId, before, outdatedFor, limit + 1,
        );
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return { data: page.map((r) => this.toLight(r)), nextCursor: rows.length > limit && last ? encodeCursor(last.seq) : null };
  }

  async attachTranscript(workspaceId: string, id: string, transcript: StoredTranscript): Promise<void> {
    this.changing(() => {
      // The summary is made again from the whole row when next read (media-summary.ts).
      const n = this.db.run('UPDATE media SET transcript_json = ?, summary_json = NULL WHERE id = ? AND workspace_id = ?', transcriptJsonOf(transcript), id, workspaceId);
      return { out: undefined, changed: n ? [id] : [] };
    });
  }

  /**
   * Attaches a transcript to audio or video media so that its analysis uses it: read by an
   * analysis that has not started yet, else the analysis is redone with it (see `reanalyze`).
   */
  async attachTranscriptForAnalysis(workspaceId: string, id: string, transcript: StoredTranscript, hints?: SpeakerHints | null): Promise<ReanalyzeOutcome> {
    return this.reanalyze(workspaceId, id, { transcript, ...(hints !== undefined ? { hints } : {}), whileUsed: 'allow' });
  }

  /**
   * Asks for a new analysis of audio or video media, with new hints and/or a transcript when
   * given (`hints` undefined keeps the stored ones). An analysis that has not started yet just
   * takes them. One that ended (ready or failed) is redone: its speakers are kept aside for
   * relinking (their appearances stay until it ends), credits reserved again (InsufficientCredits propagates)
   * and the analysis task queued, in one transaction. A running analysis cannot change mid-way;
   * with `whileUsed: 'refuse'` neither can one that a queued or running job uses.
   */
  async reanalyze(
    workspaceId: string,
    id: string,
    change: { hints?: SpeakerHints | null; transcript?: StoredTranscript; whileUsed: 'refuse' | 'allow' },
  ): Promise<ReanalyzeOutcome> {
    return this.changing(() => {
      const outcome = this.reanalyzeRow(workspaceId, id, change);
      if (outcome.state === 'pending' || outcome.state === 'reanalysing') return { out: outcome, changed: [id] };
      return { out: outcome, changed: [] };
    });
  }

  private reanalyzeRow(workspaceId: string, id: string, change: { hints?: SpeakerHints | null; transcript?: StoredTranscript; whileUsed: 'refuse' | 'allow' }): ReanalyzeOutcome {
    const r = this.db.get<MediaRow>('SELECT * FROM media WHERE id = ? AND workspace_id = ?', id, workspaceId);
    if (!r) return { state: 'missing' };
    if (r.kind === 'transcript') return { state: 'transcript' };
    if (r.analysis_status === 'running') return { state: 'running' };
    const hintsJson = change.hints === undefined ? r.speaker_hints_json : change.hints ? JSON.stringify(change.hints) : null;
    const transcriptJson = change.transcript ? transcriptJsonOf(change.transcript) : r.transcript_json;
    // No analysis while one is owed: no speakers yet (audio and video).
    const summary = pendingSummary(transcriptJson !== null);
    if (r.analysis_status === 'pending') {
      this.db.run('UPDATE media SET transcript_json = ?, speaker_hints_json = ?, summary_json = ? WHERE id = ?', transcriptJson, hintsJson, summary, id);
      return { state: 'pending', media: this.reload(id) };
    }
    if (change.whileUsed === 'refuse') {
      const jobs = this.activeJobsUsing(workspaceId, id);
      if (jobs.length > 0) return { state: 'in_use', jobs };
    }
    reserveCredits(this.db, workspaceId, analysisCost(r.duration_sec), { mediaId: id });
    const previous = r.analysis_json ? this.previousSpeakers(r) : r.previous_speakers_json;
    // Appearances stay until the new analysis ends, so that jobs naming their entities wait for it.
    this.db.run(
      `UPDATE media SET transcript_json = ?, speaker_hints_json = ?, previous_speakers_json = ?, analysis_status = 'pending', analysis_error = NULL,
       analysis_json = NULL, engine_version = NULL, analysis_stage = NULL, analysis_progress = 0, summary_json = ? WHERE id = ?`,
      transcriptJson, hintsJson, previous, summary, id,
    );
    dropTasks(this.db, 'media.analyze', id);
    enqueueTask(this.db, 'media.analyze', id, workspaceId);
    return { state: 'reanalysing', media: this.reload(id) };
  }

  /** The linked speakers of a stored analysis, with their voiceprints and speech, as JSON. */
  private previousSpeakers(r: MediaRow): string | null {
    return previousSpeakersJson(r.analysis_json as string, this.db.all<{ speaker_index: number; entity_id: string }>('SELECT speaker_index, entity_id FROM appearances WHERE media_id = ?', r.id));
  }

  private reload(id: string): MediaRecord {
    return this.toLight(this.db.get<LightMediaRow>(`SELECT ${LIGHT_COLUMNS} FROM media WHERE id = ?`, id) as LightMediaRow);
  }

  /** Queued or running jobs of the workspace whose request names this media. */
  private activeJobsUsing(workspaceId: string, mediaId: string): string[] {
    // Media ids are long random tokens, so a substring of the stored request cannot match by accident.
    return this.db
      .all<{ id: string }>(
        "SELECT id FROM jobs WHERE workspace_id = ? AND status IN ('queued', 'running') AND instr(request_json, ?) > 0",
        workspaceId, JSON.stringify(mediaId),
      )
      .map((r) => r.id);
  }

  /**
   * `delete`, unless a queued or running job uses the media: the check and the delete share one
   * transaction so that no job can start using it in between. Answers the job ids in the way.
   */
  async deleteUnlessInUse(workspaceId: string, id: string): Promise<{ deleted: MediaRecord | null; blockedBy: string[] }> {
    return this.db.transaction(() => {
      const blockedBy = this.activeJobsUsing(workspaceId, id);
      if (blockedBy.length > 0) return { deleted: null, blockedBy };
      return { deleted: this.deleteRow(workspaceId, id), blockedBy };
    });
  }

  /** Progress of a running analysis, for the jobs that wait on it. */
  async setAnalysisProgress(id: string, stage: string, fraction: number): Promise<void> {
    this.changing(() => {
      const n = this.db.run("UPDATE media SET analysis_stage = ?, analysis_progress = ? WHERE id = ? AND analysis_status = 'running'", stage, fraction, id);
      return { out: undefined, changed: n ? [id] : [] };
    });
  }

  async analysisProgress(id: string): Promise<{ stage: string | null; fraction: number } | null> {
    const r = this.db.get<{ analysis_stage: string | null; analysis_progress: number }>('SELECT analysis_stage, analysis_progress FROM media WHERE id = ?', id);
    return r ? { stage: r.analysis_stage, fraction: r.analysis_progress } : null;
  }

  async markAnalysisRunning(id: string): Promise<void> {
    this.changing(() => {
      const n = this.db.run("UPDATE media SET analysis_status = 'running', analysis_stage = NULL, analysis_progress = 0 WHERE id = ? AND analysis_status IN ('pending', 'running')", id);
      return { out: undefined, changed: n ? [id] : [] };
    });
  }

  /**
   * Stores the analysis, with the engine version that made it, and charges it by its decoded
   * duration. 'insufficient_credits' when that duration costs more than the workspace can pay:
   * nothing is stored then.
   */
  async completeAnalysis(id: string, analysis: MediaAnalysis, links: SpeakerLink[], engineVersion: string | null = analysis.engineVersion ?? null): Promise<'done' | 'insufficient_credits'> {
    return this.changing(() => {
      const out = this.completeRow(id, analysis, links, engineVersion);
      return { out, changed: out === 'stored' ? [id] : [] };
    }) === 'insufficient_credits' ? 'insufficient_credits' : 'done';
  }

  private completeRow(id: string, analysis: MediaAnalysis, links: SpeakerLink[], engineVersion: string | null): 'stored' | 'done' | 'insufficient_credits' {
    const r = this.db.get<MediaRow>('SELECT * FROM media WHERE id = ?', id);
    if (!r || r.analysis_status === 'ready' || r.analysis_status === 'failed') return 'done';
    // What is charged is what was analysed: the decoded samples' duration, not the header's
    // claim the reservation was made on (a WAV's byte rate can say 0 s for an hour of audio).
    // More than was reserved is reserved now; a workspace that cannot pay it gets no result.
    const extra = analysisCost(analysis.durationSec) - analysisCost(r.duration_sec);
    if (extra > 0) {
      try {
        reserveCredits(this.db, r.workspace_id, extra, { mediaId: id });
      } catch (err) {
        if (!(err instanceof InsufficientCredits)) throw err;
        return 'insufficient_credits';
      }
    }
    const now = nowIso();
    this.db.run('DELETE FROM appearances WHERE media_id = ?', id);
    for (const link of links) {
      if (link.create) {
        this.db.run(
          'INSERT INTO entities (id, workspace_id, label, tags_json, voiceprint_json, created_at, updated_at, seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
          link.entityId, r.workspace_id, entityLabel(link.create.label), '[]', JSON.stringify(link.create.voiceprint), now, now, this.db.nextSeq(),
        );
      } else {
        this.db.run(
          'UPDATE entities SET voiceprint_json = COALESCE(?, voiceprint_json), updated_at = ? WHERE id = ?',
          link.voiceprint ? JSON.stringify(link.voiceprint) : null, now, link.entityId,
        );
        const label = entityLabel(analysis.speakers[link.speakerIndex]?.label ?? null);
        if (label) this.db.run('UPDATE entities SET label = ? WHERE id = ? AND label IS NULL', label, link.entityId);
      }
      this.db.run(
        'INSERT OR REPLACE INTO appearances (entity_id, media_id, speaker_index, speech_sec, workspace_id) VALUES (?, ?, ?, ?, ?)',
        link.entityId, id, link.speakerIndex, link.speechSec, r.workspace_id,
      );
    }
    this.db.run(
      `UPDATE media SET analysis_status = 'ready', analysis_json = ?, engine_version = ?, previous_speakers_json = NULL,
       duration_sec = ?, summary_json = ? WHERE id = ?`,
      JSON.stringify(analysis), engineVersion, analysis.durationSec, analysisSummary(analysis, r.transcript_json !== null), id,
    );
    chargeCredits(this.db, r.workspace_id, analysisCost(analysis.durationSec), { mediaId: id });
    const unused = analysisCost(r.duration_sec) - analysisCost(analysis.durationSec);
    if (unused > 0) releaseCredits(this.db, r.workspace_id, unused, { mediaId: id });
    dropTasks(this.db, 'media.analyze', id);
    return 'stored';
  }

  /** `engineVersion`: the engine that failed it (null when no engine ran). */
  async failAnalysis(id: string, error: { code: string; message: string }, engineVersion: string | null = null): Promise<void> {
    this.changing(() => {
      const r = this.db.get<MediaRow>('SELECT * FROM media WHERE id = ?', id);
      if (!r || r.analysis_status === 'ready' || r.analysis_status === 'failed') return { out: undefined, changed: [] };
      this.db.run("UPDATE media SET analysis_status = 'failed', analysis_error = ?, engine_version = ? WHERE id = ?", JSON.stringify(error), engineVersion, id);
      // A failed re-analysis leaves its entities without this appearance (they stay known).
      this.db.run('DELETE FROM appearances WHERE media_id = ?', id);
      releaseCredits(this.db, r.workspace_id, analysisCost(r.duration_sec), { mediaId: id });
      dropTasks(this.db, 'media.analyze', id);
      return { out: undefined, changed: [id] };
    });
  }

  /** Speaker → entity links of one media, by speaker index. */
  async links(mediaId: string): Promise<Map<number, string>> {
    const rows = this.db.all<{ speaker_index: number; entity_id: string }>('SELECT speaker_index, entity_id FROM appearances WHERE media_id = ?', mediaId);
    return new Map(rows.map((r) => [r.speaker_index, r.entity_id]));
  }

  /**
   * Deletes the media and what was derived from it (its analysis, its appearances; entities
   * left with no appearance stay, as people the workspace knows). Results that exist stay.
   */
  async delete(workspaceId: string, id: string): Promise<MediaRecord | null> {
    return this.db.transaction(() => this.deleteRow(workspaceId, id));
  }

  /** Inside a transaction: the delete of `delete`, releasing an analysis still owed. */
  private deleteRow(workspaceId: string, id: string): MediaRecord | null {
    const r = this.db.get<MediaRow>('SELECT * FROM media WHERE id = ? AND workspace_id = ?', id, workspaceId);
    if (!r) return null;
    if (r.analysis_status === 'pending' || r.analysis_status === 'running') {
      releaseCredits(this.db, workspaceId, analysisCost(r.duration_sec), { mediaId: id });
    }
    dropTasks(this.db, 'media.analyze', id);
    this.db.run('DELETE FROM appearances WHERE media_id = ?', id);
    this.db.run('DELETE FROM content_links WHERE media_id = ?', id);
    this.db.run('DELETE FROM media WHERE id = ?', id);
    this.db.run('UPDATE workspaces SET media_bytes = MAX(media_bytes - ?, 0) WHERE id = ?', r.size_bytes, workspaceId);
    return toMedia(r, false);
  }
}
