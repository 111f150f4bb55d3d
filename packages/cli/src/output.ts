// Everything the CLI writes. Results go to stdout (JSON with --json, else text); progress and
// errors go to stderr. Colours and progress bars only when stdout is a terminal (and NO_COLOR is
// unset), so piped output is plain and stable. Control characters in what is written (a label,
// a file name, an error message naming them) are shown escaped, never sent: a terminal obeys
// them (ESC sequences move the cursor, OSC 52 writes the clipboard, CR overwrites the line;
// issue 41, finding 9). Only the colour codes this module and render-markdown.ts write pass.

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
    if (this.json) this.#out.write(`${jsonText(value, 2)}\n`);
    else if (text !== undefined) this.#out.write(this.#printable(text.endsWith('\n') ? text : `${text}\n`));
  }

  /** One JSON document per line (streams of events with --json). */
  jsonLine(value: unknown): void {
    this.#out.write(`${jsonText(value)}\n`);
  }

  line(text: string): void {
    this.clearLive();
    this.#out.write(`${this.#printable(text)}\n`);
  }

  /** A note for people, never mixed into stdout (so that pipes only carry results). */
  info(text: string): void {
    if (this.json) return;
    this.clearLive();
    this.#err.write(`${this.#printable(text)}\n`);
  }

  error(message: string, extra: Record<string, unknown> = {}): void {
    this.clearLive();
    if (this.json) this.#err.write(`${jsonText({ error: { message, ...extra } })}\n`);
    else this.#err.write(`${this.color ? '\x1b[31merror\x1b[0m' : 'error'}: ${printable(message, false)}\n`);
  }

  /** A line redrawn in place (progress). Only on a terminal; elsewhere it writes nothing. */
  live(text: string): void {
    if (!this.tty) return;
    this.#err.write(`\r\x1b[2K${this.#printable(text)}`);
    this.#liveLine = true;
  }

  clearLive(): void {
    if (!this.#liveLine) return;
    this.#err.write('\r\x1b[2K');
    this.#liveLine = false;
  }

  #printable(text: string): string {
    return printable(text, this.color);
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

/** The colour codes the CLI itself writes (here and in render-markdown.ts): reset, bold, dim, underline, red, green. */
const OWN_CODES = ['\x1b[0m', '\x1b[1m', '\x1b[2m', '\x1b[4m', '\x1b[31m', '\x1b[32m'];
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * Text with every control character but tab and line feed written as `\xNN`; with `colour`, the
 * CLI's own colour codes are kept (a label can at most colour its own text, never move the
 * cursor, set a title or write the clipboard).
 */
export function printable(text: string, colour: boolean): string {
  return text.replace(CONTROLS, (c, offset: number) => {
    if (colour && c === '\x1b' && OWN_CODES.some((code) => text.startsWith(code, offset))) return c;
    return `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
  });
}

/** JSON with C1 controls and DEL escaped too (`JSON.stringify` escapes only U+0000 to U+001F). */
export function jsonText(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
