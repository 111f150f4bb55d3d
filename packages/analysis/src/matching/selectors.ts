// Selector resolution (decisions §5): which speaker of a media a request means. Five strategies,
// each with its miss rule; on a miss `fallback_dominant` takes the dominant speaker and `error`
// reports the miss (the server fails the job with `target_not_found`).
import type { MediaAnalysis } from '../types.ts';
import { speechInRange } from '../behavior/stats.ts';
import { resolveMagicHint } from './magic-hint.ts';

export type SelectorStrategy = 'dominant' | 'timerange' | 'entity_id' | 'magic_hint' | 'speaker_index';

/** Mirrors the API's Selector object (interface-spec "Selector"). */
export interface Selector {
  strategy: SelectorStrategy;
  on_miss?: 'fallback_dominant' | 'error';
  entity_id?: string | null;
  hint?: string | null;
  speaker_index?: number | null;
  timerange?: { start_seconds?: number | null; end_seconds?: number | null } | null;
}

export interface SelectorContext {
  /** Entity linked to each speaker index of this media (null when not linked). */
  speakerEntityIds: (string | null)[];
  entities: Record<string, { label: string | null; tags: string[] }>;
}

export type SelectorResult = { ok: true; speakerIndex: number; fellBack: boolean } | { ok: false; reason: string };

type Pick = { ok: true; speakerIndex: number } | { ok: false; reason: string };

/** The speaker with the most speech (ties: lower index); a miss when nobody speaks. */
export function dominantSpeaker(media: MediaAnalysis): Pick {
  let best = -1;
  let bestSpeech = 0;
  media.speakers.forEach((s, i) => {
    if (s.speechSec > bestSpeech) {
      best = i;
      bestSpeech = s.speechSec;
    }
  });
  return best >= 0 ? { ok: true, speakerIndex: best } : { ok: false, reason: 'the media has no speech' };
}

function byTimerange(media: MediaAnalysis, range: Selector['timerange']): Pick {
  if (!range) return { ok: false, reason: 'the timerange strategy needs a timerange' };
  const start = range.start_seconds ?? 0;
  const end = range.end_seconds ?? media.durationSec;
  if (!(end > start)) return { ok: false, reason: `empty time range [${start}, ${end}] s` };
  const speech = speechInRange(media.segments, media.speakers.length, start, end);
  let best = -1;
  let bestSpeech = 0;
  speech.forEach((s, i) => {
    if (s > bestSpeech) {
      best = i;
      bestSpeech = s;
    }
  });
  return best >= 0 ? { ok: true, speakerIndex: best } : { ok: false, reason: `no speech between ${start} s and ${end} s` };
}

function byEntity(media: MediaAnalysis, entityId: string | null | undefined, ctx: SelectorContext): Pick {
  if (!entityId) return { ok: false, reason: 'the entity_id strategy needs an entity_id' };
  let best = -1;
  ctx.speakerEntityIds.forEach((e, i) => {
    // Two speakers of one media linked to one entity is a diarization split: take the larger.
    if (e === entityId && i < media.speakers.length && (best < 0 || (media.speakers[i]?.speechSec ?? 0) > (media.speakers[best]?.speechSec ?? 0))) best = i;
  });
  return best >= 0 ? { ok: true, speakerIndex: best } : { ok: false, reason: `entity ${entityId} does not speak in this media` };
}

function byIndex(media: MediaAnalysis, index: number | null | undefined): Pick {
  if (index === null || index === undefined) return { ok: false, reason: 'the speaker_index strategy needs a speaker_index' };
  if (!Number.isInteger(index) || index < 0 || index >= media.speakers.length) {
    return { ok: false, reason: `speaker index ${index} is not below the speaker count ${media.speakers.length}` };
  }
  return { ok: true, speakerIndex: index };
}

function pick(media: MediaAnalysis, selector: Selector, ctx: SelectorContext): Pick {
  switch (selector.strategy) {
    case 'dominant':
      return dominantSpeaker(media);
    case 'timerange':
      return byTimerange(media, selector.timerange);
    case 'entity_id':
      return byEntity(media, selector.entity_id, ctx);
    case 'speaker_index':
      return byIndex(media, selector.speaker_index);
    case 'magic_hint': {
      if (!selector.hint) return { ok: false, reason: 'the magic_hint strategy needs a hint' };
      const r = resolveMagicHint(media, selector.hint, ctx);
      return r.ok ? { ok: true, speakerIndex: r.speakerIndex } : { ok: false, reason: r.reason };
    }
    default:
      return { ok: false, reason: `unknown strategy ${String((selector as { strategy: unknown }).strategy)}` };
  }
}

export function resolveSelector(media: MediaAnalysis, selector: Selector, ctx: SelectorContext): SelectorResult {
  const first = pick(media, selector, ctx);
  if (first.ok) return { ok: true, speakerIndex: first.speakerIndex, fellBack: false };
  if (selector.on_miss === 'fallback_dominant') {
    const fallback = dominantSpeaker(media);
    if (fallback.ok) return { ok: true, speakerIndex: fallback.speakerIndex, fellBack: true };
    return { ok: false, reason: `${first.reason}; fallback: ${fallback.reason}` };
  }
  return { ok: false, reason: first.reason };
}
