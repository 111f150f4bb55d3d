// The `media.analyze` task: decode and analyse an uploaded file once (with the user's
// speaker-count hints when given), link its speakers to the workspace's entities, and cache the
// analysis on the media row with the engine version that made it. A re-analysis runs the same
// task; its entities carry over to the new speakers first (speaker-links.ts). Engine errors that describe
// the media (unreadable, no speech) fail the analysis at once, and so does an analysis over its
// memory limit (as internal_error: it would run out again); anything else (a crashed or killed
// analysis process) is retried by the worker and, after the last attempt, recorded as an
// internal error.
import type { Task, } from '../queue/queue.store.ts';
import type { TaskContext, TaskHandler, TaskOutcome } from '../queue/worker.ts';
import type { MediaStore } from './media.store.ts';
import type { EntityStore } from '../entities/entities.store.ts';
import type { Config } from '../config.ts';
import { ENGINE_UNAVAILABLE_MESSAGE, type AnalysisEngine } from '../analysis/engine.ts';
import { newId } from '../ids.ts';
import { carriedEntities, speakerLinks } from './speaker-links.ts';
import { engineHint } from './speaker-hints.ts';

/** What the analysis runner uses: the media, the entities its speakers are linked to, the engine and its limits. */
export interface MediaAnalysisDeps {
  media: MediaStore;
  entities: EntityStore;
  engine: AnalysisEngine | null;
  limits: Pick<Config, 'maxMediaSec' | 'analysisMemoryMb' | 'analysisNice' | 'analysisScheduling' | 'analysisMinSharePct'>;
}

/** What an analysis answers when its media's file took another name since the row was read. */
const RENAMED = Symbol('renamed');

export class MediaAnalysisRunner implements TaskHandler {
  private readonly deps: MediaAnalysisDeps;
  private readonly engine: AnalysisEngine | null;

  constructor(deps: MediaAnalysisDeps) {
    this.deps = deps;
    this.engine = deps.engine;
  }

  /** `again`: the row was read again, its file having taken another name (below). */
  async run(task: Task, ctx: TaskContext, again = false): Promise<TaskOutcome> {
    const media = this.deps.media;
    const m = await media.load(task.refId);
    if (!m || m.analysisStatus === 'ready' || m.analysisStatus === 'failed') return { kind: 'done' };
    const engine = this.engine;
    if (!engine) {
      await media.failAnalysis(m.id, { code: 'internal_error', message: ENGINE_UNAVAILABLE_MESSAGE });
      return { kind: 'done' };
    }
    await media.markAnalysisRunning(m.id);
    let lastWrite = 0;
    const speakers = engineHint(m.speakerHints);
    const analysis = await engine
      .analyzeMedia({
        path: m.storagePath,
        transcript: m.transcript,
        ...(speakers ? { speakers } : {}),
        signal: ctx.signal,
        maxDurationSec: this.deps.limits.maxMediaSec,
        memoryLimitMb: this.deps.limits.analysisMemoryMb,
        niceIncrement: this.deps.limits.analysisNice,
        idleScheduling: this.deps.limits.analysisScheduling === 'idle',
        minShare: this.deps.limits.analysisMinSharePct / 100,
        workspaceId: m.workspaceId,
        onProgress: (stage, fraction) => {
          // Progress is advisory: at most a few writes a second, never awaited by the engine.
          const now = Date.now();
          if (now - lastWrite < 250 && fraction < 1) return;
          lastWrite = now;
          // A store that cannot take it now (down, a lost connection) costs the progress, never the process.
          media.setAnalysisProgress(m.id, stage, fraction).catch(() => undefined);
        },
      })
      .catch(async (err: unknown) => {
        const code = (err as { code?: string }).code;
        // Read just before its file took another name (attached audio given its plain name the
        // moment after its row was written, plain-names.ts): the name read is gone, the file is
        // not. Read again, once (a row's file is renamed once).
        if (code === 'media_unreadable' && !again && (await media.load(m.id))?.storagePath !== m.storagePath) return RENAMED;
        if (code === 'media_unreadable' || code === 'no_speech_detected') {
          await media.failAnalysis(m.id, { code, message: (err as Error).message }, engine.version);
          return null;
        }
        // The same media would run out of the same memory again: no retry.
        if (code === 'analysis_out_of_memory') {
          await media.failAnalysis(m.id, { code: 'internal_error', message: (err as Error).message }, engine.version);
          return null;
        }
        throw err;
      });
    if (analysis === RENAMED) return this.run(task, ctx, true);
    if (!analysis) return { kind: 'done' };
    const existing = await this.deps.entities.voiceprints(m.workspaceId, m.id);
    // Re-analysis: entities that still speak at the same times keep their ids (only entities
    // that still exist); the other speakers are linked by voice among the remaining entities.
    const previous = (m.previousSpeakers ?? []).filter((p) => existing.some((e) => e.entityId === p.entityId));
    const carried = carriedEntities(previous, analysis.segments);
    const carriedIds = new Set(carried.values());
    const rest = analysis.speakers.filter((s) => !carried.has(s.index));
    const byVoice = engine.linkSpeakers(rest.map((s) => s.voiceprint), existing.filter((e) => !carriedIds.has(e.entityId)));
    const linked = analysis.speakers.map((s) => carried.get(s.index) ?? byVoice[rest.indexOf(s)] ?? null);
    const replaced = new Map<number, number[]>();
    for (const [index, entityId] of carried) {
      const old = previous.find((p) => p.entityId === entityId)?.voiceprint;
      if (old && old.length > 0) replaced.set(index, old);
    }
    const links = speakerLinks(analysis.speakers, linked, existing, () => newId('ent'), replaced);
    const outcome = await media.completeAnalysis(m.id, analysis, links, analysis.engineVersion ?? engine.version);
    if (outcome === 'insufficient_credits') {
      // No engine version recorded: the media stays in the outdated list, to be analysed again.
      await media.failAnalysis(m.id, {
        code: 'insufficient_credits',
        message: `The media decoded to ${analysis.durationSec} s, which costs more credits than the workspace has left.`,
      });
    }
    return { kind: 'done' };
  }

  async giveUp(task: Task, error: unknown): Promise<void> {
    await this.deps.media.failAnalysis(task.refId, {
      code: 'internal_error',
      message: `The media could not be analysed after several attempts (${error instanceof Error ? error.message : String(error)}).`,
    }, this.engine?.version ?? null);
  }
}
