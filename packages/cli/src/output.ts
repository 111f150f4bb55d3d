// Everything the CLI writes. Results go to stdout (JSON with --json, else text); progress and
// errors go to stderr. Colours and progress bars only when stdout is a terminal (and NO_COLOR is
// unset), so piped output is plain and stable.

export interface OutputOptions {
  json: boolean;
  stdout?: NodeJS.WriteStream;
  stderr?: NodeJS.WriteStream;
  env?: NodeJS.ProcessEnv;
}

export class Output {
  readonly json: boolean;
  /** Human output on a terminal: colours and live progress allowed. */
  readonly tty: boolean;
  readonly color: boolean;
  readonly #out: NodeJS.WriteStream;
  readonly #err: NodeJS.WriteStream;
  #liveLine = false;

  constructor(opts: OutputOptions) {
    this.#out = opts.stdout ?? process.stdout;
    this.#err = opts.stderr ?? process.stderr;
    const env = opts.env ?? process.env;
    this.json = opts.json;
    this.tty = !this.json && this.#out.isTTY === true && env.TERM !== 'dumb';
    this.color = this.tty && env.NO_COLOR === undefined;
  }

  /** The command's result: JSON when asked, else the text given (or nothing). */
  result(value: unknown, text?: string): void {
    this.clearLive();
    if (this.json) this.#out.write(`${JSON.stringify(value, null, 2)}\n`);
    else if (text !== undefined) this.#out.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  /** One JSON document per line (streams of events with --json). */
  jsonLine(value: unknown): void {
    this.#out.write(`${JSON.stringify(value)}\n`);
  }

  line(text: string): void {
    this.clearLive();
    this.#out.write(`${text}\n`);
  }

  /** A note for people, never mixed into stdout (so that pipes only carry results). */
  info(text: string): void {
    if (this.json) return;
    this.clearLive();
    this.#err.write(`${text}\n`);
  }

  error(message: string, extra: Record<string, unknown> = {}): void {
    this.clearLive();
    if (this.json) this.#err.write(`${JSON.stringify({ error: { message, ...extra } })}\n`);
    else this.#err.write(`${this.color ? '\x1b[31merror\x1b[0m' : 'error'}: ${message}\n`);
  }

  /** A line redrawn in place (progress). Only on a terminal; elsewhere it writes nothing. */
  live(text: string): void {
    if (!this.tty) return;
    this.#err.write(`\r\x1b[2K${text}`);
    this.#liveLine = true;
  }

  clearLive(): void {
    if (!this.#liveLine) return;
    this.#err.write('\r\x1b[2K');
    this.#liveLine = false;
  }

  bold(text: string): string {
    return this.color ? `\x1b[1m${text}\x1b[0m` : text;
  }

  dim(text: string): string {
    return this.color ? `\x1b[2m${text}\x1b[0m` : text;
  }

  green(text: string): string {
    return this.color ? `\x1b[32m${text}\x1b[0m` : text;
  }

  red(text: string): string {
    return this.color ? `\x1b[31m${text}\x1b[0m` : text;
  }
}

/** `[##########----------]  50%`, the fraction clamped to 0..1. */
export function progressBar(fraction: number, width = 24): string {
  const f = Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0));
  const filled = Math.round(f * width);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(Math.round(f * 100)).padStart(3)}%`;
}

/** Aligned columns for lists. */
export function table(rows: string[][]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  ').trimEnd()).join('\n');
}
