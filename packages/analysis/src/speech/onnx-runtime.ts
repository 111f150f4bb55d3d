// onnxruntime-node's CPU build, for the networks the engine runs: the Silero speech detector,
// the speaker segmentation network, and a deployment's own speaker embedding or segmentation
// models. An analysis is one CPU-bound pass in its own process, so this calls the package's
// synchronous binding, which its public InferenceSession only wraps in a promise: the version is
// pinned (packages/analysis/package.json) and onnxRuntime() checks that the binding is there.
// Every session runs on one thread, without arena growth between runs.
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';

export const ORT_VERSION = '1.30.0';

export interface OrtTensor {
  data: ArrayLike<number>;
  dims: readonly number[];
}

export interface OrtSession {
  loadModel(path: string, options: object): void;
  readonly inputMetadata: { name: string; shape: number[] }[];
  readonly outputMetadata: { name: string; shape: number[] }[];
  run(feeds: Record<string, unknown>, fetches: Record<string, null>, options: object): Record<string, OrtTensor>;
}

export interface Ort {
  Session: new () => OrtSession;
  tensor(data: Float32Array, dims: number[]): unknown;
  int64(data: BigInt64Array, dims: number[]): unknown;
}

/** The runtime is missing or not the pinned version: the message says what to install. */
export class OnnxRuntimeError extends Error {
  override name = 'OnnxRuntimeError';
}

let ort: Ort | null = null;

export function onnxRuntime(): Ort {
  if (ort) return ort;
  const require = createRequire(import.meta.url);
  let pkg: { Tensor: new (type: string, data: Float32Array | BigInt64Array, dims: number[]) => unknown };
  let native: { binding?: { InferenceSession?: new () => OrtSession }; initOrt?: () => void };
  try {
    pkg = require('onnxruntime-node') as typeof pkg;
    native = require('onnxruntime-node/dist/binding.js') as typeof native;
  } catch (err) {
    throw new OnnxRuntimeError(`the engine's networks need the onnxruntime-node package (npm install onnxruntime-node@${ORT_VERSION}): ${(err as Error).message}`);
  }
  const Session = native.binding?.InferenceSession;
  if (!Session || !native.initOrt) throw new OnnxRuntimeError(`onnxruntime-node has no synchronous binding: install version ${ORT_VERSION}`);
  native.initOrt();
  ort = { Session, tensor: (data, dims) => new pkg.Tensor('float32', data, dims), int64: (data, dims) => new pkg.Tensor('int64', data, dims) };
  return ort;
}

/** Session options of every network the engine runs. */
export const SESSION_OPTIONS = { intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all', enableCpuMemArena: false, logSeverityLevel: 3 };

/** A session of the model at `path`; throws what onnxruntime says when it cannot load it. */
export function openSession(path: string): OrtSession {
  const session = new (onnxRuntime().Session)();
  session.loadModel(path, SESSION_OPTIONS);
  return session;
}

/**
 * A deployment's model: the ONNX file's bytes and the parsed JSON beside it that describes it.
 * `fail` throws the caller's own error with what cannot be read (the caller names the file).
 */
export function readModelFiles(modelPath: string, specPath: string, fail: (what: string) => never): { bytes: Buffer; json: unknown } {
  let bytes: Buffer | null = null;
  let problem = 'not a file';
  try {
    if (statSync(modelPath).isFile()) bytes = readFileSync(modelPath);
  } catch (err) {
    problem = `cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`;
  }
  if (!bytes) fail(problem);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(specPath, 'utf8'));
  } catch (err) {
    fail(`its description ${specPath} is missing or not JSON (${(err as Error).message})`);
  }
  return { bytes, json };
}

/** The runtime, its loading failure given as the caller's own error type. */
export function onnxRuntimeOr(wrap: (message: string) => Error): Ort {
  try {
    return onnxRuntime();
  } catch (err) {
    throw err instanceof OnnxRuntimeError ? wrap(err.message) : err;
  }
}
