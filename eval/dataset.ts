// Reads an evaluation folder in the format of the shared dev-set builder: manifest.json, one WAV
// and one RTTM per file. Only the fields the evaluation needs are typed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Seg } from './der.ts';

export interface ManifestSelectors {
  dominant: { expected: string | null };
  speaker_index: { speaker_index: number; expected: string | null }[];
  timerange: { start_seconds: number; end_seconds: number; expected: string | null }[];
}

export interface ManifestFile {
  name: string;
  wav: string;
  rttm: string;
  /** Utterance-level truth (the transcript JSON shape with `kind`: turn or backchannel). */
  utterances: string;
  duration_s: number;
  num_speakers: number;
  speakers: string[];
  talk_share: Record<string, number>;
  selectors: ManifestSelectors;
}

export interface Manifest {
  files: ManifestFile[];
}

export function readManifest(dir: string): Manifest {
  return JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
}

/** RTTM `SPEAKER file chan start dur <NA> <NA> speaker ...` lines to segments. */
export function readRttm(path: string): Seg[] {
  const out: Seg[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const p = line.trim().split(/\s+/);
    if (p[0] !== 'SPEAKER' || p.length < 8) continue;
    const start = Number(p[3]);
    const dur = Number(p[4]);
    out.push({ speaker: p[7]!, start, end: start + dur });
  }
  return out;
}
