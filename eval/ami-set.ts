// The AMI meeting excerpts of the shared real-voice corpus (../shared/datasets/real-voices/
// conversations/ami: 15 excerpts, real spontaneous conversation with overlap) as an evaluation
// folder in the dev set's format, so that `npm run eval -- --dataset OUT` scores them as it
// scores the dev set (DER at collar 0.25 s with overlap scored, counts, talk shares):
//
//   node eval/ami-set.ts [--src ../shared/datasets/real-voices/conversations/ami] [--out /work/ami]
//
// Audio: Opus decoded to 16 kHz mono 16-bit WAV by ffmpeg. Reference: the excerpt's RTTM as it
// is (the whole file is annotated, so no UEM is needed). Utterances: the RTTM segments as turns
// (the excerpts have no backchannel labels). The data stays outside the repository.
import { parseArgs } from 'node:util';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { decodeAudioToArray } from '../packages/analysis/src/audio/decode.ts';
import { readRttm } from './dataset.ts';
import { manifestEntry, rttmText } from './dataset-writer.ts';

const { values } = parseArgs({ options: { src: { type: 'string', default: '../shared/datasets/real-voices/conversations/ami' }, out: { type: 'string', default: '/work/ami' } } });
const src = values.src!;
const out = values.out!;
mkdirSync(out, { recursive: true });
const files = [];
for (const opus of readdirSync(src).filter((n) => n.endsWith('.opus')).sort()) {
  const name = opus.replace(/\.opus$/, '');
  const wav = join(out, `${name}.wav`);
  const r = spawnSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-i', join(src, opus), '-ar', '16000', '-ac', '1', '-c:a', 'pcm_s16le', '-fflags', '+bitexact', '-flags:a', '+bitexact', '-f', 'wav', wav]);
  if (r.status !== 0) throw new Error(`ffmpeg ${opus}: ${r.stderr.toString()}`);
  const durationSec = Math.round(((await decodeAudioToArray(wav)).length / 16000) * 1000) / 1000;
  const ref = readRttm(join(src, `${name}.rttm`)).sort((a, b) => a.start - b.start);
  // Written again from the parsed segments so that the file id column matches the WAV's name.
  writeFileSync(join(out, `${name}.rttm`), rttmText(name, ref));
  writeFileSync(join(out, `${name}.json`), JSON.stringify({ name, duration_s: durationSec, segments: ref.map((s) => ({ ...s, kind: 'turn' })) }));
  files.push(manifestEntry(name, durationSec, ['ami'], ref, createHash('sha256').update(readFileSync(wav)).digest('hex')));
  process.stderr.write(`${name}: ${durationSec} s, ${new Set(ref.map((s) => s.speaker)).size} speakers, ${ref.length} segments\n`);
}
writeFileSync(join(out, 'manifest.json'), JSON.stringify({ source: src, files }, null, 1));
