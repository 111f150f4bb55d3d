// Simulated conversations (Landini et al., 2022, "From simulated mixtures to simulated
// conversations as training data for end-to-end neural diarization"): instead of voices laid
// side by side at random, turns of one speaker's utterances follow each other with the pauses and
// overlaps of real conversation. What is drawn here is pure (a seeded source in, placements out),
// so it is tested without audio; build-validation.ts renders it.
//
// - Turns: 1 to 3 utterances of one speaker, 0.15-0.6 s apart; the next speaker is drawn by talk
//   weight among the others (a weight is log-normal, sigma 0.6), and a speaker of more weight also
//   takes longer turns (more utterances, up to 2.5-7.5 s of fill), so shares are unequal even
//   between two speakers, whose turns alternate.
// - Gaps between turns: log-normal with median 0.3 s (sigma 0.8), as measured between turns in
//   real conversation; clamped to 0.05-5 s.
// - Overlap: OVERLAP_SHARE of the turns start before the previous turn ends (0.3-1.5 s early, never
//   before its start). Overlapping speech is in the reference and scored.
// - A ConversationStyle changes the overlap share and adds backchannels (a listener's short piece
//   of speech inside the current turn): the segmentation trainer's conversations
//   (training/export-segmentation.ts) overlap as much as real meetings do, where 10-20 % of the
//   speech is overlapped; the validation sets keep the defaults.
import type { VoiceClip } from './validation-corpus.ts';

const SR = 16000;
/** Share of turns that overlap the previous one: 5-10 % in the conversations Landini et al. measured. */
export const OVERLAP_SHARE = 0.075;
export const GAP_MEDIAN_SEC = 0.3;
const MAX_TURN_FILL_SEC = 5;

export interface ConversationVoice {
  id: string;
  clips: VoiceClip[];
}

/** How a conversation is drawn where it differs from the validation sets' defaults. */
export interface ConversationStyle {
  /** Share of turns that start before the previous one ends (default OVERLAP_SHARE). */
  overlapShare?: number;
  /** How early an overlapping turn starts, seconds before the previous turn's end (default 0.3-1.5). */
  overlapSec?: [number, number];
  /** Share of turns during which a listener says something short (default 0: none). */
  backchannelShare?: number;
}

export interface Placed {
  speaker: string;
  start: number; // seconds
  clip: VoiceClip;
  gainDb: number;
  /** Which turn it belongs to (0-based), and whether that turn overlaps the previous one. */
  turn: number;
  overlapped: boolean;
  /** A listener's short piece of speech inside another's turn (ConversationStyle.backchannelShare). */
  backchannel?: boolean;
}

export function gaussian(rand: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
}

function pickWeighted(w: number[], rand: () => number, except: number): number {
  const total = w.reduce((a, b, i) => a + (i === except ? 0 : b), 0);
  let r = rand() * total;
  for (let i = 0; i < w.length; i++) {
    if (i === except) continue;
    if ((r -= w[i]!) <= 0) return i;
  }
  for (let i = w.length - 1; i >= 0; i--) if (i !== except) return i;
  return 0;
}

/** The pause before a turn: log-normal around GAP_MEDIAN_SEC. */
export function drawGap(rand: () => number): number {
  return Math.min(5, Math.max(0.05, Math.exp(Math.log(GAP_MEDIAN_SEC) + 0.8 * gaussian(rand))));
}

/**
 * Each voice's clips in a shuffled order, reshuffled when used up: in a long conversation a voice
 * with little material repeats its clips as evenly as it can, not the same few at random.
 */
class ClipDeck {
  private order: number[] = [];
  private readonly clips: VoiceClip[];
  private readonly rand: () => number;
  constructor(clips: VoiceClip[], rand: () => number) {
    this.clips = clips;
    this.rand = rand;
  }
  next(): VoiceClip {
    if (this.order.length === 0) {
      this.order = this.clips.map((_, i) => i);
      for (let i = this.order.length - 1; i > 0; i--) {
        const j = Math.floor(this.rand() * (i + 1));
        [this.order[i], this.order[j]] = [this.order[j]!, this.order[i]!];
      }
    }
    return this.clips[this.order.pop()!]!;
  }
}

/**
 * Turns drawn until the target duration. `gainDb[k]` is voice k's level (a quiet speaker's is
 * -10 dB); every utterance varies by ±1 dB around it. Clips that would run past the end are dropped.
 */
export function drawConversation(voices: ConversationVoice[], durationSec: number, gainDb: number[], rand: () => number, style: ConversationStyle = {}): Placed[] {
  const overlapShare = style.overlapShare ?? OVERLAP_SHARE;
  const [earlyMin, earlyMax] = style.overlapSec ?? [0.3, 1.5];
  const backchannels = style.backchannelShare ?? 0;
  const placed: Placed[] = [];
  const n = voices.length;
  const weight = voices.map(() => Math.exp(0.6 * gaussian(rand)));
  const decks = voices.map((v) => new ClipDeck(v.clips, rand));
  let prev = -1;
  let introduced = 0;
  let lastEnd = 0.3 + rand();
  let lastTurnStart = 0;
  for (let turn = 0; lastEnd < durationSec - 3; turn++) {
    // Everyone speaks early on, as in a meeting's first minute; then by talk weight.
    const s = introduced < n && (prev === -1 || rand() < 0.6) ? introduced++ : pickWeighted(weight, rand, n > 1 ? prev : -1);
    introduced = Math.max(introduced, s + 1);
    const early = prev !== -1 && rand() < overlapShare;
    const start = early ? Math.max(lastTurnStart + 0.3, lastEnd - (earlyMin + rand() * (earlyMax - earlyMin))) : lastEnd + drawGap(rand);
    // A previous turn shorter than 0.3 s leaves nothing to overlap.
    const overlapped = start < lastEnd;
    // Who talks more also holds the floor longer: in a two-party conversation turns alternate,
    // and the length of a turn is what makes the shares unequal.
    const verbosity = weight[s]! / Math.max(...weight);
    const utterances = Math.min(3, 1 + Math.floor(rand() * (1 + 2 * verbosity)));
    const fill = MAX_TURN_FILL_SEC * (0.5 + verbosity);
    let at = start;
    let end = start;
    // A turn already longer than its fill (5 s for the most talkative) takes no further utterance: the corpus's
    // clips run to 10 s (joined command words, book sentences), and three of those make a monologue.
    for (let u = 0; u < utterances && (u === 0 || end - start < fill); u++) {
      const clip = decks[s]!.next();
      placed.push({ speaker: voices[s]!.id, start: at, clip, gainDb: (gainDb[s] ?? 0) + (rand() * 2 - 1), turn, overlapped });
      end = at + clip.samples.length / SR;
      at = end + 0.15 + rand() * 0.45;
    }
    if (backchannels > 0 && n > 1 && end - start > 1.5 && rand() < backchannels) {
      const listener = pickWeighted(weight, rand, s);
      const clip = shortPiece(decks[listener]!.next(), rand);
      if (clip) placed.push({ speaker: voices[listener]!.id, start: start + 0.3 + rand() * (end - start - 1.2), clip, gainDb: (gainDb[listener] ?? 0) + (rand() * 2 - 1), turn, overlapped: true, backchannel: true });
    }
    lastTurnStart = start;
    lastEnd = Math.max(lastEnd, end);
    prev = s;
  }
  return placed.filter((p) => p.start + p.clip.samples.length / SR <= durationSec);
}

/** A 0.2-0.8 s piece of a clip's first speech span ("yeah", "mm-hm"), or null when it has none that long. */
function shortPiece(clip: VoiceClip, rand: () => number): VoiceClip | null {
  const span = clip.spans.find((sp) => sp.end - sp.start >= 0.25);
  if (!span) return null;
  const len = Math.min(span.end - span.start, 0.2 + rand() * 0.6);
  const a = Math.round(span.start * SR);
  const samples = clip.samples.slice(a, a + Math.round(len * SR));
  return { samples, spans: [{ start: 0, end: samples.length / SR }] };
}

/** A voice's group for the same-group condition: sex and child (< 16) or adult; null when unlabelled. */
export function voiceGroup(v: { sex: string | null; age: number | null }): string | null {
  if (v.sex === null) return null;
  return `${v.sex}-${v.age !== null && v.age < 16 ? 'child' : 'adult'}`;
}

/**
 * Two or more voices of one group for the same-group condition: the group (among those with at
 * least two voices) is drawn at random, up to n voices are taken from it, the rest from anyone.
 * Null when no group has two voices (a corpus without sex labels: the caller falls back to pitch).
 */
export function sameGroupVoices<T extends { id: string; sex: string | null; age: number | null }>(pool: T[], n: number, rand: () => number): { group: string; voices: T[] } | null {
  const groups = new Map<string, T[]>();
  for (const v of pool) {
    const g = voiceGroup(v);
    if (g) groups.set(g, [...(groups.get(g) ?? []), v]);
  }
  const names = [...groups.keys()].filter((g) => groups.get(g)!.length >= 2).sort();
  if (names.length === 0) return null;
  const group = names[Math.floor(rand() * names.length)]!;
  const members = [...groups.get(group)!];
  const chosen: T[] = [];
  while (chosen.length < n && members.length > 0) chosen.push(members.splice(Math.floor(rand() * members.length), 1)[0]!);
  const rest = pool.filter((v) => !chosen.includes(v));
  while (chosen.length < n && rest.length > 0) chosen.push(rest.splice(Math.floor(rand() * rest.length), 1)[0]!);
  return { group, voices: chosen };
}
