// Builds a long-recording check from a dev folder: several files joined end to end into one WAV
// with one RTTM and a one-file manifest, so that `eval/run.ts` can score how the engine holds up
// when a recording is long and many voices come and go (the dev files are 45 s to 4 min):
//   node eval/concat-set.ts --dataset /work/dev-set --out /tmp/long --files dev01,dev07,dev12,dev03
//   npm run eval -- --dataset /tmp/long
// Speaker ids in the dev set are global, so a voice that speaks in two of the joined files is one
// reference speaker in the long one. Each part keeps its own noise and channel, so the joined
// file is harder than a natural recording of the same voices. Only 16 kHz mono 16-bit WAVs (what
// the dev-set builder writes) are accepted.
import { parseArgs } from 'node:util';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pcm16WavHeader, readWavFormat } from '../packages/analysis/src/audio/wav.ts';
import { readManifest, readRttm } from './dataset.ts';

interface SourceFile {
  name: string;
  wav: string;
  rttm: string;
  utterances: string;
  duration_s: number;
  speech_s: Record<string, number>;
}

const { values } = parseArgs({ options: { dataset: { type: 'string' }, out: { type: 'string' }, files: { type: 'string' }, name: { type: 'string' } } });
if (!values.dataset || !values.out || !values.files) {
  console.error('usage: node eval/concat-set.ts --dataset DIR --out DIR --files dev01,dev07,... [--name long01]');
  process.exit(2);
}
const name = values.name ?? 'long01';
const manifest = readManifest(values.dataset) as unknown as { files: SourceFile[] };
const parts = values.files.split(',').map((n) => {
  const f = manifest.files.find((x) => x.name === n);
  if (!f) throw new Error(`${n} is not in ${values.dataset}/manifest.json`);
  return f;
});

const pcm: Buffer[] = [];
const rttm: string[] = [];
const speakers: string[] = [];
const speech = new Map<string, number>();
// The parts' utterance truth, shifted, so that the joined file is scored like any other
// (turn-taking included).
const utterances: { speaker: string; start: number; end: number }[] = [];
let offset = 0;
for (const part of parts) {
  const path = join(values.dataset, part.wav);
  const fmt = readWavFormat(path);
  if (fmt.sampleRate !== 16000 || fmt.channels !== 1 || fmt.bitsPerSample !== 16) throw new Error(`${part.wav}: expected 16 kHz mono 16-bit`);
  const data = readFileSync(path).subarray(fmt.dataOffset, fmt.dataOffset + fmt.dataBytes);
  pcm.push(data);
  for (const s of readRttm(join(values.dataset, part.rttm))) {
    rttm.push(`SPEAKER ${name} 1 ${(s.start + offset).toFixed(3)} ${(s.end - s.start).toFixed(3)} <NA> <NA> ${s.speaker} <NA> <NA>`);
    if (!speakers.includes(s.speaker)) speakers.push(s.speaker);
  }
  for (const [id, sec] of Object.entries(part.speech_s)) speech.set(id, (speech.get(id) ?? 0) + sec);
  const truth = JSON.parse(readFileSync(join(values.dataset, part.utterances), 'utf8')) as { segments: { start: number; end: number }[] };
  for (const u of truth.segments) utterances.push({ ...u, start: u.start + offset, end: u.end + offset } as (typeof utterances)[number]);
  offset += data.length / 2 / 16000;
}

const dataBytes = pcm.reduce((a, b) => a + b.length, 0);
const header = pcm16WavHeader(dataBytes, 16000);

const total = [...speech.values()].reduce((a, b) => a + b, 0);
const talkShare = Object.fromEntries([...speech].map(([id, sec]) => [id, sec / total]));
const dominant = [...speech].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
mkdirSync(values.out, { recursive: true });
writeFileSync(join(values.out, `${name}.wav`), Buffer.concat([header, ...pcm]));
writeFileSync(join(values.out, `${name}.rttm`), `${rttm.join('\n')}\n`);
writeFileSync(join(values.out, `${name}.json`), JSON.stringify({ segments: utterances }));
writeFileSync(
  join(values.out, 'manifest.json'),
  JSON.stringify({
    files: [
      {
        name,
        wav: `${name}.wav`,
        rttm: `${name}.rttm`,
        utterances: `${name}.json`,
        duration_s: offset,
        num_speakers: speakers.length,
        speakers,
        talk_share: talkShare,
        // Only the dominant speaker is checked: speaker order and time ranges of the parts do
        // not carry over to the joined file.
        selectors: { dominant: { expected: dominant }, speaker_index: [], timerange: [] },
      },
    ],
  }),
);
console.log(`${name}: ${offset.toFixed(1)} s, ${speakers.length} speakers (${speakers.join(', ')}), dominant ${dominant}`);
