// Issue 38 §5: whatever the container, the same decoded audio gives the same speakers and
// figures. A conversation of two voices as WAV, as an MP4 video (AAC audio) and as Ogg/Opus: the
// same count, and the answers within 2 % DER of the WAV's (collar 0.25 s), allowing for what the
// lossy codecs change.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeMedia } from '../src/analyze.ts';
import { pcm16WavHeader } from '../src/audio/wav.ts';
import { ffmpegEncode } from '../src/audio/encode.testkit.ts';
import { synthConversation } from '../src/speech/synthetic.ts';
import type { MediaAnalysis } from '../src/types.ts';
import { scoreDiarization } from '../../../eval/der.ts';

const segs = (a: MediaAnalysis): { speaker: string; start: number; end: number }[] => a.segments.map((s) => ({ speaker: String(s.speaker), start: s.start, end: s.end }));

test('the same conversation as WAV, MP4 video and Ogg/Opus: the same speakers, the same turns within 2 % DER', async () => {
  const { samples } = synthConversation([{ f0: 210, formantScale: 1.2 }, { f0: 105, formantScale: 1 }], 40, { seed: 2, turnSec: 3 });
  const pcm = Buffer.alloc(samples.length * 2);
  samples.forEach((x, i) => pcm.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(x * 32767))), i * 2));
  const wav = Buffer.concat([pcm16WavHeader(pcm.length, 16000), pcm]);
  const dir = mkdtempSync(join(tmpdir(), 'same-audio-'));
  const files = {
    wav,
    mp4: await ffmpegEncode(wav, ['-map', '0:v', '-map', '1:a', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-shortest', '-c:a', 'aac', '-b:a', '96k', '-f', 'mp4'], ['-f', 'lavfi', '-i', 'testsrc=size=64x64:rate=5:duration=40']),
    opus: await ffmpegEncode(wav, ['-c:a', 'libopus', '-b:a', '48k', '-f', 'ogg']),
  };
  const analyses: Record<string, MediaAnalysis> = {};
  for (const [name, bytes] of Object.entries(files)) {
    const path = join(dir, `conversation.${name}`);
    writeFileSync(path, bytes);
    analyses[name] = await analyzeMedia({ path });
  }
  const base = analyses.wav!;
  assert.equal(base.speakers.length, 2);
  for (const name of ['mp4', 'opus']) {
    const other = analyses[name]!;
    assert.equal(other.speakers.length, base.speakers.length, name);
    const d = scoreDiarization(segs(base), segs(other), 0.25);
    assert.ok(d.der! < 0.02, `${name}: DER against the WAV's answer ${(100 * d.der!).toFixed(1)} %`);
  }
});
