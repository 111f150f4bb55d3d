// Turns the members of a job request into measured profiles: a media target through its
// selector to one speaker of one media, an entity reference to the entity's profile over all
// its media (decisions §5). Media that is still being analysed makes the caller wait.
import { enoughSpeech, MIN_SPEECH_SEC_TO_JUDGE, type MediaAnalysis } from '@rapport/analysis';
import { JobFailure } from './job-failure.ts';
import type { EntityStore } from '../entities/entities.store.ts';
import type { AnalysisEngine, MemberInput } from '../analysis/engine.ts';
import type { Member } from './job-request.schemas.ts';
import type { MediaRecord, MediaStore } from '../files/media.store.ts';

/** The stores a member is resolved from: the media with their analyses and links, and the entities. */
export interface MemberStores {
  media: MediaStore;
  entities: EntityStore;
}

export interface ResolvedProfile {
  input: MemberInput;
  source: Member;
  entityId: string | null;
  resolvedLabel: string | null;
}

export type Readiness =
  | { ready: true; media: Map<string, MediaRecord> }
  | { ready: false; stage: string | null; fraction: number };

/** Media ids a member needs: its own media, or every media an entity appears in. */
async function mediaIdsOf(stores: MemberStores, workspaceId: string, member: Member): Promise<string[]> {
  if (member.type === 'media_target') return [member.mediaId];
  const entity = await stores.entities.get(workspaceId, member.entityId);
  return entity ? [...new Set(entity.appearances.map((a) => a.mediaId))] : [];
}

export async function checkMediaReady(stores: MemberStores, workspaceId: string, members: { member: Member; ref: string }[]): Promise<Readiness> {
  const media = new Map<string, MediaRecord>();
  let waiting = 0;
  let stage: string | null = null;
  let fractionSum = 0;
  let total = 0;
  for (const { member, ref } of members) {
    for (const id of await mediaIdsOf(stores, workspaceId, member)) {
      if (media.has(id)) continue;
      const m = await stores.media.get(workspaceId, id);
      if (!m) throw new JobFailure('target_not_found', `${ref}: media ${id} no longer exists`);
      total++;
      if (m.analysisStatus === 'failed') {
        const code = m.analysisError?.code;
        const jobCode = code === 'media_unreadable' || code === 'no_speech_detected' ? code : 'internal_error';
        throw new JobFailure(jobCode, `${ref}: media ${id} could not be analysed: ${m.analysisError?.message ?? 'unknown error'}`);
      }
      if (m.analysisStatus !== 'ready') {
        waiting++;
        const p = await stores.media.analysisProgress(id);
        stage ??= p?.stage ?? null;
        fractionSum += p?.fraction ?? 0;
        continue;
      }
      fractionSum += 1;
      media.set(id, m);
    }
  }
  if (waiting > 0) return { ready: false, stage, fraction: total ? fractionSum / total : 0 };
  return { ready: true, media };
}

export async function resolveMember(
  stores: MemberStores,
  engine: AnalysisEngine,
  workspaceId: string,
  member: Member,
  ref: string,
  media: Map<string, MediaRecord>,
): Promise<ResolvedProfile> {
  if (member.type === 'entity_id') {
    const entity = await stores.entities.get(workspaceId, member.entityId);
    if (!entity) throw new JobFailure('target_not_found', `${ref}: entity ${member.entityId} no longer exists`);
    const items = entity.appearances
      .map((a) => media.get(a.mediaId)?.analysis?.speakers[a.speakerIndex])
      .filter((s): s is NonNullable<typeof s> => s !== undefined && s.speechSec > 0);
    if (items.length === 0) throw new JobFailure('target_not_found', `${ref}: entity ${member.entityId} has no usable speech in any media`);
    notEnough(ref, `entity ${member.entityId}`, items.reduce((s, i) => s + i.speechSec, 0));
    return {
      source: member,
      entityId: entity.id,
      resolvedLabel: entity.label,
      input: {
        ref,
        ...(entity.label ? { name: entity.label } : unlabelledEntityName(entity.appearances, media)),
        entityId: entity.id,
        metrics: engine.aggregateMetrics(items),
        appearances: entity.appearances.map((a) => ({ mediaId: a.mediaId, speakerIndex: a.speakerIndex })),
      },
    };
  }
  const m = media.get(member.mediaId);
  const analysis = m?.analysis as MediaAnalysis | null | undefined;
  if (!m || !analysis) throw new JobFailure('internal_error', `${ref}: media ${member.mediaId} has no analysis`);
  if (analysis.speakers.length === 0) throw new JobFailure('no_speech_detected', `${ref}: media ${member.mediaId} holds no speech`);
  const links = await stores.media.links(m.id);
  const speakerEntityIds = analysis.speakers.map((s) => links.get(s.index) ?? null);
  const entities = await stores.entities.labels(workspaceId, speakerEntityIds.filter((e): e is string => e !== null));
  const picked = engine.resolveSelector(analysis, member.selector, { speakerEntityIds, entities });
  if (!picked.ok) throw new JobFailure('target_not_found', `${ref}: the ${member.selector.strategy} selector found no speaker in media ${m.id} (${picked.reason})`);
  const speaker = analysis.speakers[picked.speakerIndex];
  if (!speaker) throw new JobFailure('target_not_found', `${ref}: speaker ${picked.speakerIndex} does not exist in media ${m.id}`);
  notEnough(ref, `Speaker ${speaker.index + 1} in ${m.label ?? m.filename}`, speaker.speechSec);
  const entityId = speakerEntityIds[picked.speakerIndex] ?? null;
  const label = (entityId ? entities[entityId]?.label : null) ?? speaker.label ?? null;
  return {
    source: member,
    entityId,
    resolvedLabel: label,
    input: {
      ref,
      // Decisions §11: the label, else "Speaker 2 in interview.wav" at the first mention and "Speaker 2" after.
      name: label ?? `Speaker ${speaker.index + 1} in ${m.label ?? m.filename}`,
      ...(label ? {} : { shortName: `Speaker ${speaker.index + 1}` }),
      entityId,
      metrics: speaker.metrics,
      appearances: [{ mediaId: m.id, speakerIndex: speaker.index }],
    },
  };
}

/** Decisions §16: a member with too little speech to judge its voice fails the job (`not_enough_speech`). */
function notEnough(ref: string, who: string, speechSec: number): void {
  if (enoughSpeech(speechSec)) return;
  throw new JobFailure('not_enough_speech', `${ref}: ${who} speaks ${Math.round(speechSec * 10) / 10} s; at least ${MIN_SPEECH_SEC_TO_JUDGE} s of speech are needed to judge a voice`);
}

/**
 * An entity without a label, named after its first appearance (decisions §11): "Speaker 2 in
 * interview.wav and 2 other recordings" at the first mention, "Speaker 2" after.
 */
export function unlabelledEntityName(appearances: readonly { mediaId: string; speakerIndex: number }[], media: Map<string, MediaRecord>): { name: string; shortName: string } {
  const first = appearances.find((a) => media.has(a.mediaId)) ?? appearances[0];
  const record = first ? media.get(first.mediaId) : undefined;
  if (!first || !record) return { name: 'Unnamed speaker', shortName: 'Unnamed speaker' };
  const short = `Speaker ${first.speakerIndex + 1}`;
  const others = new Set(appearances.map((a) => a.mediaId)).size - 1;
  const rest = others === 0 ? '' : ` and ${others} other ${others === 1 ? 'recording' : 'recordings'}`;
  return { name: `${short} in ${record.label ?? record.filename}${rest}`, shortName: short };
}
