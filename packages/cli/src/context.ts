// What every API command gets: its parsed flags, the output, and a client built on first use from
// flags or the environment (RAPPORT_API_KEY, RAPPORT_BASE_URL).
import { Rapport } from '@rapport/client';
import { retryMessage } from './retry-message.ts';
import { UsageError } from './usage-error.ts';
import type { Output } from './output.ts';

export type Flags = Record<string, string | boolean | string[] | undefined>;

export interface CommandOption {
  type: 'string' | 'boolean';
  multiple?: boolean;
  short?: string;
}

export interface Command {
  /** One line per form, without the leading `rapport`. */
  usage: string[];
  summary: string;
  options?: Record<string, CommandOption>;
  run(ctx: Context, args: string[], flags: Flags): Promise<number | void>;
}

export class Context {
  readonly out: Output;
  readonly flags: Flags;
  readonly env: NodeJS.ProcessEnv;
  #client: Rapport | undefined;

  constructor(out: Output, flags: Flags, env: NodeJS.ProcessEnv) {
    this.out = out;
    this.flags = flags;
    this.env = env;
  }

  get client(): Rapport {
    if (this.#client) return this.#client;
    const apiKey = str(this.flags, 'api-key') ?? this.env.RAPPORT_API_KEY;
    if (!apiKey) throw new MissingKeyError('no API key: set RAPPORT_API_KEY or pass --api-key');
    const baseUrl = str(this.flags, 'base-url') ?? this.env.RAPPORT_BASE_URL ?? 'http://127.0.0.1:8080';
    const timeout = str(this.flags, 'timeout');
    this.#client = new Rapport({ apiKey, baseUrl, ...(timeout ? { timeoutMs: Number(timeout) * 1000 } : {}), onRetry: (r) => this.out.info(retryMessage(r)) });
    return this.#client;
  }
}

export class MissingKeyError extends Error {
  override name = 'MissingKeyError';
}

export function str(flags: Flags, name: string): string | undefined {
  const v = flags[name];
  return typeof v === 'string' ? v : undefined;
}

export function list(flags: Flags, name: string): string[] {
  const v = flags[name];
  return Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
}

export function int(flags: Flags, name: string, min: number, max: number): number | undefined {
  const v = str(flags, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`--${name} must be a whole number from ${min} to ${max}`);
  return n;
}

export function need(args: string[], index: number, name: string): string {
  const v = args[index];
  if (v === undefined || v === '') throw new UsageError(`missing ${name}`);
  return v;
}
