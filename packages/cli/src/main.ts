// Entry point of `rapport`. The admin words (serve, workspace, key, secret, credits grant, migrate-store) go to
// the server package, loaded only for them; every other command talks to the API through the
// SDK and never loads the server. No static import here may reach @rapport/client: the resolve
// hook below must be in place first.
import { registerHooks } from 'node:module';

// In this repository the packages run from their TypeScript sources: the SDK's `development`
// export condition points at src/, while its default points at a dist/ that only `npm run build`
// makes. The hook adds that condition for @rapport/* packages only.
registerHooks({
  resolve(specifier, context, nextResolve) {
    if (!specifier.startsWith('@rapport/')) return nextResolve(specifier, context);
    return nextResolve(specifier, { ...context, conditions: [...context.conditions, 'development'] });
  },
});

const ADMIN = new Set(['serve', 'workspace', 'key', 'secret', 'migrate-store']);

function isAdmin(argv: string[]): boolean {
  const [word, sub] = argv;
  return (word !== undefined && ADMIN.has(word)) || (word === 'credits' && sub === 'grant');
}

async function main(argv: string[]): Promise<void> {
  if (isAdmin(argv) && !argv.includes('--help') && !argv.includes('-h')) {
    const { runAdminCommand } = await import('@rapport/server/cli');
    const code = await runAdminCommand(argv);
    // -1: a long-running command (serve) that ends on its own signal.
    if (code >= 0) process.exitCode = code;
    return;
  }
  const { run } = await import('./run.ts');
  process.exitCode = await run(argv);
}

await main(process.argv.slice(2));
