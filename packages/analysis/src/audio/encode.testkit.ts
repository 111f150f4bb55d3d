// TEST KIT: encodes generated audio into the other formats (MP3, Ogg/Opus, Ogg/Vorbis, FLAC,
// M4A/AAC, WebM, video) with the same FFmpeg-in-WebAssembly package that decodes them, so that
// tests make their fixtures without any binary on the machine. Not for production paths: it runs
// the core in the calling process, outside the sandbox.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

interface Core {
  FS: { writeFile(path: string, data: Uint8Array): void; readFile(path: string): Uint8Array };
  exec(...args: string[]): number;
  setLogger(fn: (m: { type: string; message: string }) => void): void;
}

const pkg = path.resolve(path.dirname(createRequire(import.meta.url).resolve('@ffmpeg/core')), '../..');
let wasm: Buffer | null = null;

async function newCore(): Promise<Core> {
  const g = globalThis as Record<string, unknown>;
  const hadSelf = 'self' in g;
  const js = path.join(pkg, 'dist/esm/ffmpeg-core.js');
  if (!hadSelf) g.self = { location: { href: pathToFileURL(js).href } };
  try {
    const mod = (await import(pathToFileURL(js).href)) as { default: (o: Record<string, unknown>) => Promise<Core> };
    wasm ??= readFileSync(path.join(pkg, 'dist/esm/ffmpeg-core.wasm'));
    return await mod.default({ wasmBinary: wasm });
  } finally {
    if (!hadSelf) delete g.self;
  }
}

/** Output options per fixture format. */
export const ENCODINGS = {
  mp3: ['-c:a', 'libmp3lame', '-b:a', '64k', '-f', 'mp3'],
  opus: ['-c:a', 'libopus', '-b:a', '32k', '-f', 'ogg'],
  vorbis: ['-c:a', 'libvorbis', '-f', 'ogg'],
  flac: ['-c:a', 'flac', '-f', 'flac'],
  m4a: ['-c:a', 'aac', '-b:a', '64k', '-f', 'ipod'],
  webm: ['-c:a', 'libopus', '-b:a', '32k', '-f', 'webm'],
  aac: ['-c:a', 'aac', '-b:a', '64k', '-f', 'adts'],
} as const satisfies Record<string, readonly string[]>;

/**
 * Runs FFmpeg on `input` (any format it reads, e.g. a generated WAV) with `outputArgs` and
 * answers the output file. `inputArgs` go before `-i` (e.g. a lavfi source with no input).
 */
export async function ffmpegEncode(input: Uint8Array | null, outputArgs: readonly string[], inputArgs: readonly string[] = []): Promise<Buffer> {
  const core = await newCore();
  let log = '';
  core.setLogger((m) => {
    if (log.length < 2000) log += `${m.message}\n`;
  });
  if (input) core.FS.writeFile('/in', input);
  const code = core.exec('-v', 'error', ...inputArgs, ...(input ? ['-i', '/in'] : []), ...outputArgs, '/out');
  if (code !== 0) throw new Error(`ffmpeg (wasm) failed with ${code}: ${log}`);
  return Buffer.from(core.FS.readFile('/out'));
}
