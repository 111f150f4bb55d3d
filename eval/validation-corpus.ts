// The training corpus (training/speaker-data.sh) as validation voices: clips trimmed to their
// speech and levelled, each voice's median F0, and which leave-voices-out fold a voice is in.
// The fold of a voice depends on its id alone, so the trainer (training/) and the validation
// builder (build-validation.ts) agree on it without sharing state.
import { readFileSync, readdirSync } from 'node:fs';
import { decodeAudioToArray } from '../packages/analysis/src/audio/decode.ts';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { analyzeFrames } from '../packages/analysis/src/speech/features.ts';

const SR = 16000;
const FRAME = 160;

export interface VoiceClip {
  samples: Float32Array;
  /** Speech spans within the trimmed clip, seconds. */
  spans: { start: number; end: number }[];
}

export interface CorpusVoice {
  id: string;
  package: string;
  clips: VoiceClip[];
  seconds: number;
  medianF0: number;
}

/** The leave-voices-out fold of a voice: a hash of its id, so every tool agrees. */
export function foldOf(id: string, folds: number): number {
  return createHash('sha256').update(id).digest().readUInt32LE(0) % folds;
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.floor(q * (sorted.length - 1))))] ?? -100;
}

/**
 * Speech spans of a clip by the dev set's energy rule: 10 ms frames above max(L90 - 25 dB,
 * L5 + 6 dB, -65 dBFS), dips under 0.3 s bridged, bursts under 60 ms dropped, 20 ms margins.
 */
export function energySpans(x: Float32Array): { start: number; end: number }[] {
  const n = Math.floor(x.length / FRAME);
  const db = new Float64Array(n);
  for (let f = 0; f < n; f++) {
    let s = 0;
    for (let i = f * FRAME; i < (f + 1) * FRAME; i++) s += x[i]! * x[i]!;
    db[f] = 10 * Math.log10(s / FRAME + 1e-12);
  }
  const sorted = Array.from(db).sort((a, b) => a - b);
  const thr = Math.max(quantile(sorted, 0.9) - 25, quantile(sorted, 0.05) + 6, -65);
  const runs: [number, number][] = [];
  for (let f = 0; f < n; f++) {
    if (db[f]! <= thr) continue;
    const last = runs[runs.length - 1];
    if (last && f - last[1] <= 30) last[1] = f + 1;
    else runs.push([f, f + 1]);
  }
  return runs
    .filter(([a, b]) => b - a >= 6)
    .map(([a, b]) => ({ start: Math.max(0, a * 0.01 - 0.02), end: Math.min(x.length / SR, b * 0.01 + 0.02) }));
}

/** Clips longer than this are cut at their quietest moment: an utterance, not a paragraph. */
const MAX_CLIP_SEC = 10;

/**
 * A recording cut into pieces of at most maxSec, each cut at the quietest 50 ms (in mean power)
 * at least 3 s from either end of the piece it splits, so that words stay whole where the audio
 * has a pause. The real-voice corpus holds book sentences of up to 35 s and files of joined
 * command words; a conversation's utterance is shorter.
 */
export function splitAtPauses(x: Float32Array, maxSec: number): Float32Array[] {
  if (x.length <= maxSec * SR) return [x];
  const margin = 3 * SR;
  const win = 800;
  let best = margin;
  let bestPower = Infinity;
  for (let a = margin; a + win <= x.length - margin; a += FRAME) {
    let s = 0;
    for (let i = a; i < a + win; i++) s += x[i]! * x[i]!;
    if (s < bestPower) {
      bestPower = s;
      best = a + win / 2;
    }
  }
  return [...splitAtPauses(x.subarray(0, best), maxSec), ...splitAtPauses(x.subarray(best), maxSec)];
}

/** Cuts a clip to its speech, levels it to -26 dBFS active speech, and keeps its spans. */
function trimClip(raw: Float32Array): VoiceClip | null {
  const spans = energySpans(raw);
  if (spans.length === 0) return null;
  const a = Math.round(spans[0]!.start * SR);
  const b = Math.round(spans[spans.length - 1]!.end * SR);
  const x = raw.slice(a, b);
  let e = 0;
  let m = 0;
  const shifted = spans.map((s) => ({ start: s.start - a / SR, end: s.end - a / SR }));
  for (const s of shifted)
    for (let i = Math.round(s.start * SR); i < Math.round(s.end * SR) && i < x.length; i++) {
      e += x[i]! * x[i]!;
      m++;
    }
  const g = 10 ** (-26 / 20) / Math.sqrt(e / Math.max(1, m) + 1e-12);
  for (let i = 0; i < x.length; i++) x[i] = x[i]! * g;
  return x.length >= SR * 0.3 ? { samples: x, spans: shifted } : null;
}

export function speechSpans(clip: VoiceClip): { start: number; end: number }[] {
  return clip.spans;
}

/** A voice as `speakers.json` lists it, before its audio is read. */
export interface VoiceEntry {
  id: string;
  package: string;
  /** 'f' | 'm' where the source corpus labels it. */
  sex: string | null;
  /** Years, where the source corpus gives it. */
  age: number | null;
  /** Seconds of audio, where speakers.json gives it (the older corpus's list does not). */
  seconds: number | null;
}

/** The corpus's voice list alone: with hundreds of voices, reading every clip is not affordable. */
export function loadCorpusIndex(dir: string): VoiceEntry[] {
  const list = JSON.parse(readFileSync(join(dir, 'speakers.json'), 'utf8')) as { id: string; package: string; sex?: string | null; age?: string | number | null; seconds?: number }[];
  return list.map((s) => ({ id: s.id, package: s.package, sex: s.sex === 'f' || s.sex === 'm' ? s.sex : null, age: s.age === null || s.age === undefined || s.age === '' ? null : Number(s.age), seconds: s.seconds ?? null }));
}

/** One voice's clips, cut at pauses to utterances of at most 10 s, trimmed to their speech and levelled. */
export async function loadVoiceClips(dir: string, id: string): Promise<VoiceClip[]> {
  const files = readdirSync(join(dir, id)).filter((n) => n.endsWith('.wav')).sort();
  const clips: VoiceClip[] = [];
  for (const n of files)
    for (const piece of splitAtPauses(await decodeAudioToArray(join(dir, id, n)), MAX_CLIP_SEC)) {
      const clip = trimClip(piece);
      if (clip) clips.push(clip);
    }
  return clips;
}

/** One voice's clips trimmed and levelled, with its median F0; null when no clip holds speech. */
export async function loadVoice(dir: string, entry: { id: string; package: string }): Promise<CorpusVoice | null> {
  const clips = await loadVoiceClips(dir, entry.id);
  if (clips.length === 0) return null;
  const f0: number[] = [];
  for (const c of clips.slice(0, 30)) {
    const feats = analyzeFrames(c.samples);
    for (let i = 0; i < feats.frames; i++) if (feats.pitchHz[i]! > 0) f0.push(feats.pitchHz[i]!);
  }
  f0.sort((p, q) => p - q);
  return { id: entry.id, package: entry.package, clips, seconds: clips.reduce((t, c) => t + c.samples.length / SR, 0), medianF0: quantile(f0, 0.5) };
}

/** Every voice of the corpus, its clips trimmed and levelled, with its median F0. */
export async function loadCorpus(dir: string): Promise<CorpusVoice[]> {
  const voices: CorpusVoice[] = [];
  for (const s of loadCorpusIndex(dir)) {
    const v = await loadVoice(dir, s);
    if (v) voices.push(v);
  }
  return voices;
}
