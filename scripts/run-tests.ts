// Runs every test file of the repository with Node's own test runner. Test files sit beside the
// code (`*.test.ts`) or under a package's `test/` folder. Integration tests need PostgreSQL and
// Redis (`.ci/run` starts them) and fail without them, unless RAPPORT_SKIP_SERVICES=1 asks them
// to skip with the reason printed. The store suite (packages/server/test/stores) runs on both
// the embedded store and PostgreSQL; then the API suite (every test file that builds the app
// with buildTestApp) runs again with TEST_STORE=postgres, since the API must answer alike on both.
// The Python client's tests (clients/python/tests/test_*.py) run after the TypeScript ones, with
// `python3 -m unittest` in clients/python (its integration tests start a real service, and
// tests/test_typing.py runs mypy --strict); a failure there fails the run. The same substring
// filter selects them (`node scripts/run-tests.ts python` runs only them).
import { spawnSync } from 'node:child_process';
import { globSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';

const files = globSync(['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'eval/**/*.test.ts', 'bench/**/*.test.ts', 'training/**/*.test.ts'])
  .filter((f) => !f.includes('node_modules'))
  .sort();
const pythonFiles = globSync('clients/python/tests/test_*.py').sort();
const only = process.argv.slice(2);
const selected = only.length ? files.filter((f) => only.some((o) => f.includes(o))) : files;
const pythonSelected = only.length ? pythonFiles.filter((f) => only.some((o) => f.includes(o))) : pythonFiles;
if (selected.length === 0 && pythonSelected.length === 0) {
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

/** The Python client's tests: every module with no filter (`unittest discover`), else the ones selected. */
function runPython(list: string[]): number {
  const modules = list.map((f) => `tests.${basename(f, '.py')}`);
  const args = list.length === pythonFiles.length ? ['-m', 'unittest', 'discover', '-s', 'tests', '-t', '.'] : ['-m', 'unittest', ...modules];
  console.log(`\nThe Python client (clients/python: python3 ${args.join(' ')}):\n`);
  const result = spawnSync('python3', args, { cwd: 'clients/python', stdio: 'inherit', env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } });
  if (result.error) console.error(`python3 did not run: ${result.error.message} (the Python client's tests need python3, 3.9 or later)`);
  return result.status ?? 1;
}

let status = selected.length ? run(selected) : 0;
if (pythonSelected.length) status = runPython(pythonSelected) || status;
const apiSuite = selected.filter((f) => f.startsWith('packages/server/') && readFileSync(f, 'utf8').includes('buildTestApp('));
if (status !== 0 || apiSuite.length === 0 || process.env.RAPPORT_SKIP_SERVICES === '1' || process.env.TEST_STORE) process.exit(status);
console.log(`\nThe API suite again on PostgreSQL (TEST_STORE=postgres, ${apiSuite.length} files):\n`);
process.exit(run(apiSuite, { TEST_STORE: 'postgres' }));
