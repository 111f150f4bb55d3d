// Runs every test file of the repository with Node's own test runner. Test files sit beside the
// code (`*.test.ts`) or under a package's `test/` folder. Integration tests need PostgreSQL and
// Redis (`.ci/run` starts them) and fail without them, unless RAPPORT_SKIP_SERVICES=1 asks them
// to skip with the reason printed. The store suite (packages/server/test/stores) runs on both
// the embedded store and PostgreSQL; then the API suite (every test file that builds the app
// with buildTestApp) runs again with TEST_STORE=postgres, since the API must answer alike on both.
import { spawnSync } from 'node:child_process';
import { globSync, readFileSync } from 'node:fs';

const files = globSync(['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'eval/**/*.test.ts', 'bench/**/*.test.ts', 'training/**/*.test.ts'])
  .filter((f) => !f.includes('node_modules'))
  .sort();
const only = process.argv.slice(2);
const selected = only.length ? files.filter((f) => only.some((o) => f.includes(o))) : files;
if (selected.length === 0) {
  console.error('no test files found');
  process.exit(1);
}

function run(list: string[], env: Record<string, string> = {}): number {
  const result = spawnSync(process.execPath, ['--test', '--test-concurrency=2', '--test-reporter=spec', ...list], {
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  return result.status ?? 1;
}

const status = run(selected);
const apiSuite = selected.filter((f) => f.startsWith('packages/server/') && readFileSync(f, 'utf8').includes('buildTestApp('));
if (status !== 0 || apiSuite.length === 0 || process.env.RAPPORT_SKIP_SERVICES === '1' || process.env.TEST_STORE) process.exit(status);
console.log(`\nThe API suite again on PostgreSQL (TEST_STORE=postgres, ${apiSuite.length} files):\n`);
process.exit(run(apiSuite, { TEST_STORE: 'postgres' }));
