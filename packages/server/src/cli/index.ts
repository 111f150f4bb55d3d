// Admin commands of the `rapport` command line, working directly on the configured store
// (decisions §3): serve, workspace create, key create|revoke, secret rotate, credits grant.
// `runAdminCommand` answers the process exit code; output is JSON for machine use.
// Only the store modules are imported up front: the HTTP app (fastify, schemas, routes) is
// loaded for `serve` alone, so that the admin commands start in a fraction of a second.
import path from 'node:path';
import { loadConfig, ConfigError, type Config } from '../config.ts';
import { hasControls, NO_CONTROLS_MESSAGE } from '../control-chars.ts';
import { openAdminStores } from '../compose/open-stores.ts';
import { WorkspaceService } from '../workspace/workspace.service.ts';
import { quotasOf, type QuotaOverrides, type Quotas } from '../workspace/quotas.ts';

export const ADMIN_USAGE = `Admin commands (work on the configured store: DATABASE_URL, else DATA_DIR):
  rapport serve                                   start the service
  rapport workspace create NAME                   new workspace; prints {workspaceId, apiKey, signingSecret}
  rapport key create --workspace ID [--scope admin|standard] [--name NAME]
  rapport key revoke --workspace ID KEY_ID
  rapport secret rotate --workspace ID            new signing secret (the old one signs for 24 h more)
  rapport credits grant --workspace ID AMOUNT
  rapport workspace limits --workspace ID [--upload N] [--report-creation N] [--job-status N]
                           [--files N] [--entities N] [--credits N] [--default N]
                           [--api-keys N] [--media-bytes N] [--reset]
                                                  the workspace's requests per minute by class (decisions §4),
                                                  its active API keys and its bytes of stored media
  rapport migrate-store --from DATA_DIR --to DATABASE_URL [--schema NAME]
                                                  copy the embedded store into an empty PostgreSQL store`;

/** The admin commands (besides serve), as `command sub`: anything else is a usage error, answered before the store is opened. */
const ADMIN_COMMANDS = new Set(['workspace limits', 'workspace create', 'key create', 'key revoke', 'secret rotate', 'credits grant']);

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}

function positional(args: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i]?.startsWith('--')) i++;
    else out.push(args[i] as string);
  }
  return out;
}

class UsageError extends Error {}

/** `workspace limits` flags and the rate classes they set. */
const LIMIT_FLAGS: Record<string, keyof Config['rateLimits']> = {
  upload: 'upload', 'report-creation': 'reportCreation', 'job-status': 'jobStatus', files: 'files', entities: 'entities', credits: 'credits', default: 'default',
};

/** `workspace limits` flags of the workspace's quotas, with their bounds. */
const QUOTA_FLAGS: Record<string, { quota: keyof Quotas; max: number; what: string }> = {
  'api-keys': { quota: 'apiKeys', max: 10_000, what: 'number of active API keys' },
  'media-bytes': { quota: 'mediaBytes', max: Number.MAX_SAFE_INTEGER, what: 'number of bytes of stored media' },
};

/** The `--name` flags present (with or without a value). */
function args(list: string[]): Set<string> {
  return new Set(list.filter((a) => a.startsWith('--')).map((a) => a.slice(2)));
}

export async function runAdminCommand(argv: string[]): Promise<number> {
  const [command, sub, ...rest] = argv;
  try {
    if (command === 'serve') {
      const { serveFromEnv } = await import('../serve.ts');
      await serveFromEnv();
      return -1; // keeps running; the caller must not exit
    }
    if (command === 'migrate-store') return await migrateStoreCommand(argv.slice(1));
    if (!ADMIN_COMMANDS.has(`${command} ${sub}`)) throw new UsageError(ADMIN_USAGE);
    const config = loadConfig();
    const stores = await openAdminStores(config);
    const service = new WorkspaceService(stores.workspaces, config.initialCredits, config);
    const out = (v: unknown) => process.stdout.write(`${JSON.stringify(v, null, 2)}\n`);
    const workspaceId = async (args: string[]) => {
      const id = flag(args, 'workspace') ?? (await stores.workspaces.anyWorkspace())?.id;
      if (!id) throw new UsageError('no workspace exists; create one with `rapport workspace create NAME`');
      if (!(await stores.workspaces.getWorkspace(id))) throw new UsageError(`no workspace ${id}`);
      return id;
    };
    try {
      if (command === 'workspace' && sub === 'create') {
        const name = positional(rest)[0];
        if (!name) throw new UsageError('usage: rapport workspace create NAME');
        if (hasControls(name)) throw new UsageError(`NAME ${NO_CONTROLS_MESSAGE}`);
        out(await service.createWorkspace(name));
      } else if (command === 'workspace' && sub === 'limits') {
        const id = await workspaceId(rest);
        let overrides = args(rest).has('reset') ? null : await stores.workspaces.getRateLimits(id);
        for (const [name, cls] of Object.entries(LIMIT_FLAGS)) {
          const raw = flag(rest, name);
          if (raw === undefined) continue;
          const n = Number(raw);
          if (!Number.isInteger(n) || n < 1 || n > 1_000_000) throw new UsageError(`--${name} must be a whole number of requests per minute, 1 to 1000000`);
          overrides = { ...(overrides ?? {}), [cls]: n };
        }
        let quotas: QuotaOverrides | null = args(rest).has('reset') ? null : await stores.workspaces.getQuotas(id);
        for (const [name, { quota, max, what }] of Object.entries(QUOTA_FLAGS)) {
          const raw = flag(rest, name);
          if (raw === undefined) continue;
          const n = Number(raw);
          if (!Number.isInteger(n) || n < 1 || n > max) throw new UsageError(`--${name} must be a whole ${what}, 1 to ${max}`);
          quotas = { ...(quotas ?? {}), [quota]: n };
        }
        await stores.workspaces.setRateLimits(id, overrides);
        await stores.workspaces.setQuotas(id, quotas);
        out({
          workspaceId: id,
          limits: { ...config.rateLimits, ...(overrides ?? {}) },
          overrides: overrides ?? {},
          quotas: quotasOf(config, quotas),
          quotaOverrides: quotas ?? {},
          usage: await stores.workspaces.usage(id),
        });
      } else if (command === 'key' && sub === 'create') {
        const scope = flag(rest, 'scope') ?? 'standard';
        if (scope !== 'admin' && scope !== 'standard') throw new UsageError('--scope must be admin or standard');
        const keyName = flag(rest, 'name') ?? null;
        if (keyName !== null && hasControls(keyName)) throw new UsageError(`--name ${NO_CONTROLS_MESSAGE}`);
        const key = await service.createKey(await workspaceId(rest), scope, keyName, true);
        out({ keyId: key.id, apiKey: key.apiKey, scope: key.scope, workspaceId: key.workspaceId });
      } else if (command === 'key' && sub === 'revoke') {
        const keyId = positional(rest)[0];
        if (!keyId) throw new UsageError('usage: rapport key revoke [--workspace ID] KEY_ID');
        const key = await stores.workspaces.revokeKey(await workspaceId(rest), keyId);
        if (!key) throw new UsageError(`no key ${keyId} in that workspace`);
        out({ keyId: key.id, revokedAt: key.revokedAt });
      } else if (command === 'secret' && sub === 'rotate') {
        const s = await service.rotateSigningSecret(await workspaceId(rest));
        out({ signingSecret: s.current, previousSecretValidUntil: s.previousExpiresAt });
      } else if (command === 'credits' && sub === 'grant') {
        const amount = Number(positional(rest)[0]);
        if (!Number.isInteger(amount) || amount <= 0) throw new UsageError('usage: rapport credits grant [--workspace ID] AMOUNT (a positive integer)');
        const id = await workspaceId(rest);
        const balance = await stores.credits.grant(id, amount);
        out({ workspaceId: id, granted: amount, balance });
      } else {
        throw new UsageError(ADMIN_USAGE);
      }
      return 0;
    } finally {
      await stores.close();
    }
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`${err.message}\n`);
      return 2;
    }
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      return 78;
    }
    throw err;
  }
}

/** `rapport migrate-store`: every table of the embedded store into an empty PostgreSQL store, counts verified. */
async function migrateStoreCommand(args: string[]): Promise<number> {
  const config = loadConfig();
  const from = flag(args, 'from') ?? config.dataDir;
  const to = flag(args, 'to') ?? config.databaseUrl;
  if (!to || !/^postgres(ql)?:\/\//.test(to)) throw new UsageError('usage: rapport migrate-store --from DATA_DIR --to postgres://user@host:port/database [--schema NAME]');
  const { migrateStore, MigrateStoreError } = await import('../store/migrate-store.ts');
  try {
    const report = await migrateStore(path.resolve(from), to, flag(args, 'schema') ?? config.databaseSchema);
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return 0;
  } catch (err) {
    if (!(err instanceof MigrateStoreError)) throw err;
    process.stderr.write(`${err.message}\n`);
    return 1;
  }
}
