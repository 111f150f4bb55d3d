// The measurements behind documents, per speaker of a media and per entity over its media. An
// entity's profile aggregates its appearances in media whose analysis is ready, as a matching job
// does (member-resolver); appearances in media not yet analysed are left out.
import { aggregateMetrics } from '@rapport/analysis';
import { ApiError } from '../errors.ts';
import type { AuthContext } from '../workspace/auth.ts';
import type { MediaStore } from '../files/media.store.ts';
import type { EntityStore } from '../entities/entities.store.ts';
import type { EntityMetrics, MediaMetrics, SpeakerMeasures } from './metrics.schemas.ts';

/** What MetricsService reads: the media with their analyses, and the entities. */
export interface MetricsDeps {
  media: MediaStore;
  entities: EntityStore;
}

export class MetricsService {
  private readonly deps: MetricsDeps;
  constructor(deps: MetricsDeps) {
    this.deps = deps;
  }

  async ofMedia(auth: AuthContext, id: string): Promise<MediaMetrics> {
    const m = await this.deps.media.get(auth.workspaceId, id);
    if (!m) throw new ApiError('NOT_FOUND', `No media ${id}.`);
    if (m.analysisStatus !== 'ready' || !m.analysis) {
      throw new ApiError('CONFLICT', `The analysis of media ${id} is ${m.analysisStatus}; its measurements exist once analysis.status is ready.`);
    }
    const links = await this.deps.media.links(m.id);
    const people = await this.deps.entities.labels(auth.workspaceId, [...links.values()]);
    // Decisions §17: a speaker is named by its person's label, else the transcript's name.
    const label = (index: number): string | null => people[links.get(index) ?? '']?.label ?? m.analysis?.speakers[index]?.label ?? null;
    // A transcript on its own (decisions §19) says which measures it has no audio for.
    const notMeasured = m.analysis.method.notMeasured;
    return {
      mediaId: m.id,
      speakers: m.analysis.speakers.map((s) => ({ index: s.index, entityId: links.get(s.index) ?? null, label: label(s.index), metrics: s.metrics as SpeakerMeasures })),
      ...(notMeasured ? { notMeasured: { measures: [...notMeasured.measures], reason: notMeasured.reason } } : {}),
    };
  }

  async ofEntity(auth: AuthContext, id: string): Promise<EntityMetrics> {
    const entity = await this.deps.entities.get(auth.workspaceId, id);
    if (!entity) throw new ApiError('NOT_FOUND', `No entity ${id}.`);
    const appearances: EntityMetrics['appearances'] = [];
    // One read of the speakers of every media it appears in, without their segments, turns or
    // transcripts: before, each appearance parsed its media's whole row on the event loop (16
    // appearances in hour-long recordings held it 1.2 to 1.4 s).
    const speakers = await this.deps.media.readySpeakers(auth.workspaceId, entity.appearances.map((a) => a.mediaId));
    for (const a of entity.appearances) {
      const speaker = speakers.get(a.mediaId)?.[a.speakerIndex];
      if (speaker) appearances.push({ mediaId: a.mediaId, speakerIndex: a.speakerIndex, metrics: speaker.metrics as SpeakerMeasures });
    }
    const usable = appearances.filter((a) => a.metrics.speechSec > 0);
    return {
      entityId: entity.id,
      label: entity.label,
      metrics: usable.length ? (aggregateMetrics(usable) as SpeakerMeasures) : null,
      appearances,
    };
  }
}
