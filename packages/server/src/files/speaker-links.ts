// How the speakers of one analysed media become entity appearances. A speaker linked to an
// existing entity moves that entity's voiceprint to the running mean over its appearances, so
// that an entity stands for all the recordings it was heard in, not only the first: the same
// rule the identity evaluation (eval/run.ts) measures.
import type { SpeakerLink } from './media.store.ts';

export interface KnownVoiceprint {
  entityId: string;
  voiceprint: number[];
  /** Media this entity already appears in (other than the one being linked). */
  appearances: number;
}

export function speakerLinks(
  speakers: { index: number; speechSec: number; voiceprint: number[]; label: string | null }[],
  linked: (string | null)[],
  known: KnownVoiceprint[],
  newEntityId: () => string,
): SpeakerLink[] {
  const byId = new Map(known.map((k) => [k.entityId, k]));
  return speakers.map((s, i) => {
    const entityId = linked[i] ?? null;
    const entity = entityId ? byId.get(entityId) : undefined;
    if (!entityId || !entity) return { speakerIndex: s.index, entityId: newEntityId(), speechSec: s.speechSec, create: { voiceprint: s.voiceprint, label: s.label } };
    const n = Math.max(1, entity.appearances);
    const voiceprint = entity.voiceprint.length === s.voiceprint.length ? entity.voiceprint.map((v, d) => Math.round(((v * n + s.voiceprint[d]!) / (n + 1)) * 1e5) / 1e5) : undefined;
    return { speakerIndex: s.index, entityId, speechSec: s.speechSec, ...(voiceprint ? { voiceprint } : {}) };
  });
}
