// `rapport --help` and `rapport COMMAND --help`.
import type { Command } from './context.ts';
import { COMMANDS } from './commands/index.ts';
import { MEMBER_SYNTAX } from './members.ts';

const GLOBAL = `Options for every API command:
  --json              machine-readable output on stdout (errors as JSON on stderr)
  --api-key KEY       default: $RAPPORT_API_KEY
  --base-url URL      default: $RAPPORT_BASE_URL, else http://127.0.0.1:8080
  --timeout SECONDS   per request (default 60; uploads 600)
  -h, --help          help for the command`;

const EXIT_CODES = `Exit codes:
  0 ok   1 other error (conflict, credits, server)
  2 usage, or input refused (400; 413 too large; 415 not a supported format)
  3 authentication (no key, bad key, wrong scope)   4 not found   5 job failed
  6 rate limited, timed out or unreachable (retry later)`;

const ADMIN = `Admin commands (work on the local store in DATA_DIR, no API key; JSON output):
  serve                                          start the service
  workspace create NAME                          prints {workspaceId, apiKey, signingSecret}
  key create [--workspace ID] [--scope admin|standard] [--name NAME]
  key revoke [--workspace ID] KEY_ID
  secret rotate [--workspace ID]                 the old secret keeps signing for 24 h
  credits grant [--workspace ID] AMOUNT
  workspace limits --workspace ID [--upload N] [--report-creation N] [--job-status N] [--files N]
                   [--entities N] [--credits N] [--default N] [--api-keys N] [--media-bytes N] [--reset]
                                                 a workspace's own rate limits and quotas
  migrate-store --from DATA_DIR --to DATABASE_URL [--schema NAME]
                                                 copy an embedded store into PostgreSQL`;

export function adminHelp(): string {
  return `${ADMIN}

Exit codes: 0 ok, 2 usage, 78 bad configuration.`;
}

export function mainHelp(): string {
  const rows = Object.entries(COMMANDS).map(([, c]) => [c.usage[0] ?? '', c.summary]);
  const width = Math.min(48, Math.max(...rows.map(([u]) => (u ?? '').length)));
  const lines = rows.map(([u = '', s]) => (u.length > width ? `  ${u}\n  ${''.padEnd(width)}  ${s}` : `  ${u.padEnd(width)}  ${s}`));
  return [
    'rapport: the Rapport command line',
    '',
    'Usage: rapport COMMAND [options]',
    '',
    'API commands:',
    ...lines,
    '',
    `A MEMBER is ${MEMBER_SYNTAX}.`,
    '',
    GLOBAL,
    '',
    ADMIN,
    '',
    EXIT_CODES,
  ].join('\n');
}

export function commandHelp(name: string, command: Command): string {
  const member = command.usage.some((u) => u.includes('MEMBER')) ? ['', `MEMBER: ${MEMBER_SYNTAX}`, '  time: seconds or m:ss, either end may be empty (time=90-, time=-1:30)'] : [];
  return [`rapport ${name}: ${command.summary}`, '', ...command.usage.map((u) => `Usage: rapport ${u}`), ...member, '', GLOBAL, '', EXIT_CODES].join('\n');
}
