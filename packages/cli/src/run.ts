// Parses the command line and runs one API command; answers the exit code. Errors become a
// one-line message (or a JSON object with --json) and the code that names their kind.
import { parseArgs } from 'node:util';
import { APIError, JobFailedError, ValidationError } from '@rapport/client';
import { EXIT, exitCodeFor } from './exit-codes.ts';
import { UsageError } from './usage-error.ts';
import { Context, MissingKeyError } from './context.ts';
import type { Command, CommandOption, Flags } from './context.ts';
import { Output } from './output.ts';
import { COMMANDS } from './commands/index.ts';
import { adminHelp, commandHelp, mainHelp } from './help.ts';

const GLOBAL_OPTIONS: Record<string, CommandOption> = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  'api-key': { type: 'string' },
  'base-url': { type: 'string' },
  timeout: { type: 'string' },
};

/** The command words: the first two words that are neither flags nor a global flag's value. */
function commandWords(argv: string[]): { word: string; index: number }[] {
  const words: { word: string; index: number }[] = [];
  for (let i = 0; i < argv.length && words.length < 2; i++) {
    const a = argv[i] as string;
    if (a.startsWith('-')) {
      const name = a.replace(/^--?/, '');
      if (GLOBAL_OPTIONS[name]?.type === 'string') i++;
      continue;
    }
    words.push({ word: a, index: i });
  }
  return words;
}

function findCommand(argv: string[]): { name: string; command: Command; rest: string[] } | undefined {
  const words = commandWords(argv);
  for (const n of [2, 1]) {
    if (words.length < n) continue;
    const name = words.slice(0, n).map((w) => w.word).join(' ');
    const command = COMMANDS[name];
    if (!command) continue;
    const drop = new Set(words.slice(0, n).map((w) => w.index));
    return { name, command, rest: argv.filter((_, i) => !drop.has(i)) };
  }
  return undefined;
}

export async function run(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const json = argv.includes('--json');
  const out = new Output({ json, env });
  if (argv.length === 0 || argv[0] === 'help' || argv[0] === '--help' || argv[0] === '-h') {
    const topic = argv[0] === 'help' ? findCommand(argv.slice(1)) : undefined;
    out.line(topic ? commandHelp(topic.name, topic.command) : mainHelp());
    return EXIT.ok;
  }
  if (argv[0] === 'serve' || argv[0] === 'workspace' || argv[0] === 'key' || argv[0] === 'secret' || (argv[0] === 'credits' && argv[1] === 'grant')) {
    // Only `--help` of an admin word gets here (main.ts sends the rest to the server package).
    out.line(adminHelp());
    return EXIT.ok;
  }
  if (argv[0] === '--version' || argv[0] === '-v') {
    out.line('rapport 0.1.0');
    return EXIT.ok;
  }
  const found = findCommand(argv);
  try {
    if (!found) throw new UsageError(`unknown command "${commandWords(argv).map((w) => w.word).join(' ')}"; see rapport --help`);
    const { values, positionals } = parseArgs({
      args: found.rest,
      options: { ...GLOBAL_OPTIONS, ...found.command.options },
      allowPositionals: true,
      strict: true,
    });
    const flags = values as Flags;
    if (flags.help) {
      out.line(commandHelp(found.name, found.command));
      return EXIT.ok;
    }
    const code = await found.command.run(new Context(out, flags, env), positionals, flags);
    return code ?? EXIT.ok;
  } catch (err) {
    return report(out, err, found?.name, env);
  }
}

function isParseArgsError(err: unknown): boolean {
  // parseArgs rejects unknown flags and missing values with a TypeError carrying ERR_PARSE_ARGS_*.
  return err instanceof TypeError && String((err as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS');
}

function report(out: Output, err: unknown, command: string | undefined, env: NodeJS.ProcessEnv): number {
  if (err instanceof APIError) {
    const details = err instanceof ValidationError && err.details.length ? err.details : undefined;
    const lines = details?.map((d) => `  ${d.path || '/'}: ${d.message}`) ?? [];
    const text = [`${err.message} (${err.status} ${err.code}, request ${err.requestId ?? 'unknown'})`, ...lines].join('\n');
    out.error(out.json ? err.message : text, { status: err.status, code: err.code, requestId: err.requestId, ...(details ? { details } : {}) });
    return exitCodeFor(err);
  }
  if (err instanceof JobFailedError) {
    out.error(err.message, { code: err.code, jobId: err.jobId });
    return EXIT.jobFailed;
  }
  if (err instanceof UsageError || isParseArgsError(err)) {
    out.error(`${(err as Error).message}${command ? ` (see rapport ${command} --help)` : ''}`, { code: 'USAGE' });
    return EXIT.usage;
  }
  if (err instanceof MissingKeyError) {
    out.error(err.message, { code: 'NO_API_KEY' });
    return EXIT.auth;
  }
  const e = err instanceof Error ? err : new Error(String(err));
  out.error(env.RAPPORT_DEBUG ? (e.stack ?? e.message) : e.message, { code: e.name });
  return exitCodeFor(err);
}
