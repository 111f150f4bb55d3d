// The media sandbox's outside: starts sandbox.child.ts as a Node process under the permission
// model, hands it the upload as its stdin (an fd opened here, so the child needs no right to
// read any path of the data folder), and reads what it writes. Every run has a time limit and is
// killed on abort. See docs/security.md for the threat model.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EngineError } from '../types.ts';

const CHILD = fileURLToPath(new URL('./sandbox.child.ts', import.meta.url));
/** A probe reads headers: seconds at most, even for a crafted file. */
export const PROBE_TIMEOUT_MS = 30_000;

interface CoreFiles {
  js: string;
  wasm: string;
  dir: string;
}

let core: CoreFiles | null | undefined;

function coreFiles(): CoreFiles | null {
  if (core === undefined) {
    try {
      const require = createRequire(import.meta.url);
      // `require` resolves to the UMD build (dist/umd/); the ESM build sits beside it.
      const pkg = path.resolve(path.dirname(require.resolve('@ffmpeg/core')), '../..');
      core = { js: path.join(pkg, 'dist/esm/ffmpeg-core.js'), wasm: path.join(pkg, 'dist/esm/ffmpeg-core.wasm'), dir: pkg };
    } catch {
      core = null;
    }
  }
  return core;
}

/** Node flags that confine the child: read its own code and the decoder, nothing else. */
function nodeFlags(files: CoreFiles): string[] {
  return [
    '--permission',
    `--allow-fs-read=${path.dirname(CHILD)}`,
    `--allow-fs-read=${files.dir}`,
    '--max-old-space-size=256',
    '--disable-warning=ExperimentalWarning',
  ];
}

/** Starts the sandbox on the file at `filePath`; stdout carries its answer. */
export function startSandbox(mode: 'decode' | 'probe', filePath: string, demuxer: string, maxSec: number): ChildProcess {
  const files = coreFiles();
  if (!files) throw new EngineError('media_unreadable', 'the media decoder (@ffmpeg/core) is not installed');
  let fd: number;
  try {
    fd = openSync(filePath, 'r');
  } catch (err) {
    throw new EngineError('media_unreadable', `cannot open media: ${(err as Error).message}`);
  }
  try {
    return spawn(process.execPath, [...nodeFlags(files), CHILD, mode, demuxer, String(maxSec), files.js, files.wasm], {
      stdio: [fd, 'pipe', 'pipe'],
      env: {},
    });
  } finally {
    closeSync(fd); // the child has its own copy
  }
}

/** Collects a child's stderr (bounded) and its exit. */
export function watchChild(child: ChildProcess): { stderr: () => string; exited: Promise<number | null> } {
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    if (stderr.length < 4000) stderr += d.toString();
  });
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once('error', (err) => reject(new EngineError('media_unreadable', `the media decoder failed to start: ${err.message}`)));
    child.once('close', (code) => resolve(code));
  });
  exited.catch(() => undefined); // observed by the caller; avoid an unhandled rejection meanwhile
  return { stderr: () => stderr.trim().split('\n').slice(-2).join(' '), exited };
}

export interface ProbeStream {
  codec_type?: string;
  codec_name?: string;
  duration?: string;
  disposition?: { attached_pic?: number };
}

export interface ProbeOutput {
  streams?: ProbeStream[];
  format?: { format_name?: string; duration?: string };
}

/**
 * Streams, container and declared duration of the media at `filePath`, read as `demuxer` and
 * nothing else; null when the file cannot be read as that container.
 */
export async function probeMedia(filePath: string, demuxer: string, timeoutMs = PROBE_TIMEOUT_MS): Promise<ProbeOutput | null> {
  const child = startSandbox('probe', filePath, demuxer, 0);
  const { exited } = watchChild(child);
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const chunks: Buffer[] = [];
  let size = 0;
  child.stdout?.on('data', (d: Buffer) => {
    size += d.length;
    if (size > 4 * 1024 * 1024) child.kill('SIGKILL');
    else chunks.push(d);
  });
  try {
    const code = await exited;
    if (code !== 0) return null;
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as ProbeOutput;
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}
