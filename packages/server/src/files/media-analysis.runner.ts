// The `media.analyze` task: decode and analyse an uploaded file once, link its speakers to the
// workspace's entities, and cache the analysis on the media row. Engine errors that describe
// the media (unreadable, no speech) fail the analysis at once; anything else is retried by the
// worker and, after the last attempt, recorded as an internal error.
import type { Task, } from '../queue/queue.store.ts';
import type { TaskContext, TaskHandler, TaskOutcome } from '../queue/worker.ts';
import type { Services } from '../services.ts';
import { ENGINE_UNAVAILABLE_MESSAGE, type AnalysisEngine } from '../analysis/engine.ts';
import { newId } from '../ids.ts';
import { speakerLinks } from './speaker-links.ts';

export class MediaAnalysisRunner implements TaskHandler {
  private readonly services: Services;
  private readonly engine: AnalysisEngine | null;

  constructor(services: Services, engine: AnalysisEngine | null) {
    this.services = services;
    this.engine = engine;
  }

  async run(task: Task, ctx: TaskContext): Promise<TaskOutcome> {
    const media = this.services.stores.media;
    const m = await media.load(task.refId);
    if (!m || m.analysisStatus === 'ready' || m.analysisStatus === 'failed') return { kind: 'done' };
    if (!this.engine) {
      await media.failAnalysis(m.id, { code: 'internal_error', message: ENGINE_UNAVAILABLE_MESSAGE });
      return { kind: 'done' };
    }
    await media.markAnalysisRunning(m.id);
    let lastWrite = 0;
    const analysis = await this.engine
      .analyzeMedia({
        path: m.storagePath,
        transcript: m.transcript,
        signal: ctx.signal,
        maxDurationSec: this.services.config.maxMediaSec,
        memoryLimitMb: this.services.config.analysisMemoryMb,
        onProgress: (stage, fraction) => {
          // Progress is advisory: at most a few writes a second, never awaited by the engine.
          const now = Date.now();
          if (now - lastWrite < 250 && fraction < 1) return;
          lastWrite = now;
          void media.setAnalysisProgress(m.id, stage, fraction);
        },
      })
      .catch(async (err: unknown) => {
        const code = (err as { code?: string }).code;
        if (code === 'media_unreadable' || code === 'no_speech_detected') {
          await media.failAnalysis(m.id, { code, message: (err as Error).message });
          return null;
        }
        throw err;
      });
    if (!analysis) return { kind: 'done' };
    const existing = await this.services.stores.entities.voiceprints(m.workspaceId, m.id);
    const linked = this.engine.linkSpeakers(analysis.speakers.map((s) => s.voiceprint), existing);
    const links = speakerLinks(analysis.speakers, linked, existing, () => newId('ent'));
    const outcome = await media.completeAnalysis(m.id, analysis, links);
    if (outcome === 'insufficient_credits') {
      await media.failAnalysis(m.id, {
        code: 'insufficient_credits',
        message: `The media decoded to ${analysis.durationSec} s, which costs more credits than the workspace has left.`,
      });
    }
    return { kind: 'done' };
  }

  async giveUp(task: Task, error: unknown): Promise<void> {
    await this.services.stores.media.failAnalysis(task.refId, {
      code: 'internal_error',
      message: `The media could not be analysed after several attempts (${error instanceof Error ? error.message : String(error)}).`,
    });
  }
}
