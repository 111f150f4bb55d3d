// Runs every test file of the repository with Node's own test runner. Test files sit beside the
// code (`*.test.ts`) or under a package's `test/` folder. Integration tests need PostgreSQL and
// Redis (`.ci/run` starts them) and fail without them, unless RAPPORT_SKIP_SERVICES=1 asks them
// to skip with the reason printed. The store suite (packages/server/test/stores) runs on both
// the embedded store and PostgreSQL.
import { spawnSync } from 'node:child_process';
import { globSync } from 'node:fs';

const files = globSync(['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'eval/**/*.test.ts', 'bench/**/*.test.ts'])
  .filter((f) => !f.includes('node_modules'))
  .sort();
const only = process.argv.slice(2);
const selected = only.length ? files.filter((f) => only.some((o) => f.includes(o))) : files;
if (selected.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
const result = spawnSync(process.execPath, ['--test', '--test-concurrency=2', '--test-reporter=spec', ...selected], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
