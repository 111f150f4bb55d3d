// Parses the command line and runs one API command; answers the exit code. Errors become a
// one-line message (or a JSON object with --json) and the code that names their kind.
import { parseArgs } from 'node:util';
import { APIError, JobFailedError } from '@rapport/client';
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
    return report(out, err, found?.name);
  }
}

function report(out: Output, err: unknown, command: string | undefined): number {
  const code = err instanceof MissingKeyError ? EXIT.auth : exitCodeFor(err);
  if (err instanceof APIError) {
    const details = 'details' in err && Array.isArray(err.details) && err.details.length ? err.details : undefined;
    const text = details ? `${err.message}\n${details.map((d: { path: string; message: string }) => `  ${d.path || '/'}: ${d.message}`).join('\n')}` : err.message;
    out.error(out.json ? err.message : `${text} (${err.status} ${err.code}, request ${err.requestId ?? 'unknown'})`, {
      status: err.status, code: err.code, requestId: err.requestId, ...(details ? { details } : {}),
    });
  } else if (err instanceof JobFailedError) {
    out.error(err.message, { code: err.code, jobId: err.jobId });
  } else if (err instanceof Error && (err.name === 'UsageError' || err.name.endsWith('Error'))) {
    const hint = err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') ? (command ? ` (rapport ${command} --help)` : '') : '';
    out.error(`${err.message}${hint}`, { code: err.name });
    // parseArgs rejects unknown flags with a TypeError carrying ERR_PARSE_ARGS_*: a usage error.
    if ((err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) return EXIT.usage;
  } else {
    out.error(String(err));
  }
  return code;
}
