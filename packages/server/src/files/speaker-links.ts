// How the speakers of one analysed media become entity appearances. A speaker linked to an
// existing entity moves that entity's voiceprint to the running mean over its appearances, so
// that an entity stands for all the recordings it was heard in, not only the first: the same
// rule the identity evaluation (eval/run.ts) measures.
//
// A re-analysis first carries the entities of the analysis it replaces over to the new speakers
// that speak when they spoke (carriedEntities): the same stretch of the same recording is the
// same voice whatever engine cut it, so an entity keeps its id where its voice still speaks,
// even when a new speaker model makes old and new voiceprints incomparable. Speakers not carried
// over are linked by voice as after any upload.
//
// A speaker with too little speech to judge a voice (decisions §16, speech-sufficiency.ts)
// creates no entity of its own: it is linked to an existing entity when its voice matches (that
// entity's voiceprint left as it was), else left unlinked.
import { enoughSpeech } from '@rapport/analysis';

/** How each analysed speaker was linked: to an existing entity, or to a new one. */
export interface SpeakerLink {
  speakerIndex: number;
  entityId: string;
  speechSec: number;
  /** Present when the entity is new: its first voiceprint and label. */
  create?: { voiceprint: number[]; label: string | null };
  /** Present when linked to an existing entity: the updated voiceprint (running mean). */
  voiceprint?: number[];
}

export interface KnownVoiceprint {
  entityId: string;
  voiceprint: number[];
  /** Media this entity already appears in (other than the one being linked). */
  appearances: number;
}

/** A speaker of the analysis a re-analysis replaces: its entity, voiceprint and speech. */
export interface PreviousSpeaker {
  entityId: string;
  voiceprint: number[];
  /** [start, end] in seconds. */
  segments: [number, number][];
}

const round5 = (x: number): number => Math.round(x * 1e5) / 1e5;

/**
 * The links of the speakers that have one: speakers too short to judge that match no entity are
 * left out. `previous` (re-analysis only): for a speaker carried over, the voiceprint this media gave its
 * entity before, which the new one replaces in the mean. A carried entity whose voiceprint has
 * another length (an older speaker model) takes the new voiceprint.
 */
export function speakerLinks(
  speakers: { index: number; speechSec: number; voiceprint: number[]; label: string | null }[],
  linked: (string | null)[],
  known: KnownVoiceprint[],
  newEntityId: () => string,
  previous: Map<number, number[]> = new Map(),
): SpeakerLink[] {
  const byId = new Map(known.map((k) => [k.entityId, k]));
  return speakers.flatMap((s, i): SpeakerLink[] => {
    const entityId = linked[i] ?? null;
    const entity = entityId ? byId.get(entityId) : undefined;
    const enough = enoughSpeech(s.speechSec);
    if (!entityId || !entity) return enough ? [{ speakerIndex: s.index, entityId: newEntityId(), speechSec: s.speechSec, create: { voiceprint: s.voiceprint, label: s.label } }] : [];
    // Too little speech to move a person's voiceprint: linked, the voiceprint left as it was.
    if (!enough) return [{ speakerIndex: s.index, entityId, speechSec: s.speechSec }];
    const n = Math.max(1, entity.appearances);
    const old = previous.get(s.index);
    const same = entity.voiceprint.length === s.voiceprint.length;
    let voiceprint: number[] | undefined;
    if (old && same && old.length === s.voiceprint.length) {
      // Replace this media's share of the mean: v + (new - old) / (appearances + 1).
      voiceprint = entity.voiceprint.map((v, d) => round5(v + (s.voiceprint[d]! - old[d]!) / (entity.appearances + 1)));
    } else if (same) {
      voiceprint = entity.voiceprint.map((v, d) => round5((v * n + s.voiceprint[d]!) / (n + 1)));
    } else if (old || entity.voiceprint.length === 0) {
      // A transcript's person (text-entities.ts) has no voice yet: this is its first.
      voiceprint = s.voiceprint;
    }
    return [{ speakerIndex: s.index, entityId, speechSec: s.speechSec, ...(voiceprint ? { voiceprint } : {}) }];
  });
}

function overlapSec(a: [number, number][], b: [number, number][]): number {
  let sum = 0;
  for (const [s1, e1] of a) for (const [s2, e2] of b) sum += Math.max(0, Math.min(e1, e2) - Math.max(s1, s2));
  return sum;
}

/**
 * For a re-analysis: the previous entity each new speaker carries on, by speaker index. A new
 * speaker keeps the entity of the previous speaker it shares the most speech time with, when
 * that shared time is more than half of its own speech or more than half of the previous
 * speaker's (a voice that was split in many and is now one keeps its person: identity linking
 * by voice is conservative and would not join them again); pairs are taken largest overlap
 * first, one to one (a previous speaker split in two keeps its entity on the larger part).
 */
export function carriedEntities(previous: PreviousSpeaker[], segments: { speaker: number; start: number; end: number }[]): Map<number, string> {
  const byNew = new Map<number, [number, number][]>();
  for (const s of segments) {
    const list = byNew.get(s.speaker) ?? [];
    list.push([s.start, s.end]);
    byNew.set(s.speaker, list);
  }
  const pairs: { speaker: number; entityId: string; shared: number }[] = [];
  for (const [speaker, own] of byNew) {
    const total = own.reduce((t, [a, b]) => t + Math.max(0, b - a), 0);
    for (const p of previous) {
      const shared = overlapSec(own, p.segments);
      const before = p.segments.reduce((t, [a, b]) => t + Math.max(0, b - a), 0);
      if (total > 0 && (shared > total / 2 || shared > before / 2)) pairs.push({ speaker, entityId: p.entityId, shared });
    }
  }
  pairs.sort((a, b) => b.shared - a.shared);
  const out = new Map<number, string>();
  const taken = new Set<string>();
  for (const p of pairs) {
    if (out.has(p.speaker) || taken.has(p.entityId)) continue;
    out.set(p.speaker, p.entityId);
    taken.add(p.entityId);
  }
  return out;
}
