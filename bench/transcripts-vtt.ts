// The WebVTT that bench/transcripts.ts uploads: `cues` cues of `text`, two speakers taking turns.
export function vtt(cues: number, text: string): Buffer {
  const ts = (s: number) => new Date(s * 1000).toISOString().slice(11, 23);
  const parts = ['WEBVTT\n\n'];
  for (let i = 0; i < cues; i++) parts.push(`${ts(i * 0.04)} --> ${ts(i * 0.04 + 0.03)}\n<v ${i % 2 ? 'Bob' : 'Alice'}>${text}\n\n`);
  return Buffer.from(parts.join(''));
}
