// The media sandbox's inside. This file runs as its own Node process under the permission model
// (started by sandbox.ts): it may read only its own folder and the decoder package, write no
// file, start no process, worker or add-on. The uploaded bytes arrive as fd 0, opened by the
// parent. The decoder is FFmpeg compiled to WebAssembly (@ffmpeg/core): its whole file system is
// in memory, and the only host bytes it can reach are those of /input, a device whose reads are
// positional reads of fd 0. A playlist, concat script or reference inside the media can name any
// path or URL: none of them exists in there, and only the `file` protocol is allowed anyway.
//
// argv: mode (`decode` | `probe`), demuxer, max seconds to decode, the core's .js and .wasm.
// decode: 16 kHz mono float32 little-endian on stdout. probe: ffprobe's JSON on stdout.
import { fstatSync, readFileSync, readSync, writeSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

interface EmscriptenStream {
  position: number;
}
interface EmscriptenNode {
  node_ops: Record<string, unknown> & { getattr: (node: EmscriptenNode) => Record<string, unknown> };
}
interface EmscriptenFs {
  makedev(major: number, minor: number): number;
  registerDevice(dev: number, ops: Record<string, unknown>): void;
  mkdev(path: string, mode: number, dev: number): void;
  lookupPath(path: string): { node: EmscriptenNode };
  ErrnoError: new (errno: number) => Error;
}
interface FfmpegCore {
  FS: EmscriptenFs;
  exec(...args: string[]): number;
  ffprobe(...args: string[]): number;
  setLogger(fn: (m: { type: string; message: string }) => void): void;
}

const EINVAL = 28;
const SAMPLE_RATE = 16000;

/** Writes all of `buf` to fd 1, waiting while the pipe is full. */
function writeAll(buf: Uint8Array): void {
  let off = 0;
  while (off < buf.length) {
    try {
      off += writeSync(1, buf, off, buf.length - off);
    } catch (err) {
      if ((err as { code?: string }).code !== 'EAGAIN') throw err;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
    }
  }
}

async function loadCore(coreJs: string, coreWasm: string): Promise<FfmpegCore> {
  // The core is built for browsers' workers and reads `self.location`; nothing else of it is used.
  (globalThis as Record<string, unknown>).self = { location: { href: pathToFileURL(coreJs).href } };
  const mod = (await import(pathToFileURL(coreJs).href)) as { default: (opts: Record<string, unknown>) => Promise<FfmpegCore> };
  return mod.default({ wasmBinary: readFileSync(coreWasm) });
}

/** /input: the upload (fd 0), read-only and seekable, with its true size. */
function mountInput(core: FfmpegCore): void {
  const { FS } = core;
  const size = fstatSync(0).size;
  const dev = FS.makedev(64, 0);
  FS.registerDevice(dev, {
    read: (_s: EmscriptenStream, buffer: Int8Array, offset: number, length: number, position: number) =>
      position >= size ? 0 : readSync(0, buffer, offset, Math.min(length, size - position), position),
    llseek: (s: EmscriptenStream, offset: number, whence: number) => {
      const p = whence === 0 ? offset : whence === 1 ? s.position + offset : size + offset;
      if (p < 0) throw new FS.ErrnoError(EINVAL);
      return p;
    },
  });
  FS.mkdev('/input', 0o444, dev);
  const node = FS.lookupPath('/input').node;
  const getattr = node.node_ops.getattr;
  node.node_ops = { ...node.node_ops, getattr: (n: EmscriptenNode) => ({ ...getattr(n), size }) };
}

/** /output: every byte written goes to stdout. */
function mountOutput(core: FfmpegCore): void {
  const { FS } = core;
  const dev = FS.makedev(64, 1);
  FS.registerDevice(dev, {
    write: (_s: EmscriptenStream, buffer: Int8Array, offset: number, length: number) => {
      writeAll(new Uint8Array(buffer.buffer, buffer.byteOffset + offset, length));
      return length;
    },
    llseek: (s: EmscriptenStream) => s.position,
  });
  FS.mkdev('/output', 0o666, dev);
}

async function main(): Promise<number> {
  const [mode, demuxer, maxSecArg, coreJs, coreWasm] = process.argv.slice(2);
  if (!mode || !demuxer || !maxSecArg || !coreJs || !coreWasm) throw new Error('usage: sandbox.child.ts mode demuxer maxSec core.js core.wasm');
  const core = await loadCore(coreJs, coreWasm);
  const stdout: string[] = [];
  let stderr = '';
  core.setLogger((m) => {
    if (m.type === 'stdout') stdout.push(m.message);
    else if (!m.message.startsWith('Aborted(') && stderr.length < 4000) stderr += `${m.message}\n`;
  });
  mountInput(core);
  const input = ['-protocol_whitelist', 'file', '-f', demuxer, '-i', '/input'];
  let code: number;
  if (mode === 'probe') {
    // This build's ffprobe leaves its return code unset (-1): the JSON it printed is the answer.
    core.ffprobe('-v', 'error', ...input, '-show_format', '-show_streams', '-of', 'json');
    const json = stdout.join('\n');
    code = json.trim().startsWith('{') ? 0 : 1;
    if (code === 0) writeAll(Buffer.from(json));
  } else {
    mountOutput(core);
    // A little past the cap, so that the parent sees that the media runs over it.
    const maxSec = Number(maxSecArg) + 1;
    code = core.exec('-v', 'error', '-nostdin', ...input, '-vn', '-sn', '-dn', '-map', '0:a:0', '-t', String(maxSec), '-ac', '1', '-ar', String(SAMPLE_RATE), '-f', 'f32le', '-y', '/output');
  }
  if (stderr) writeSync(2, stderr);
  return code;
}

main().then(
  (code) => process.exit(code === 0 ? 0 : 1),
  (err: unknown) => {
    writeSync(2, `sandbox: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(2);
  },
);
