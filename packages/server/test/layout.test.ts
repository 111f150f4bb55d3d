// The layout's rules (docs/architecture.md, issue 34): store/ is the SQL layer and imports no
// feature folder; stores, services and runners import nothing from http/ (errors are errors.ts and
// jobs/job-failure.ts, who a request acts as is workspace/auth.ts); and only the entry points
// import compose/, except the routes, which take the `Services` type from it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { globSync, readFileSync } from 'node:fs';
import path from 'node:path';

const SRC = path.join(import.meta.dirname, '..', 'src');
const files = globSync('**/*.ts', { cwd: SRC }).filter((f) => !f.endsWith('.test.ts') && !f.includes('.testkit.'));

/** The files of src that `file` imports (relative imports, type-only ones included), as paths under src. */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(SRC, file), 'utf8');
  return [...text.matchAll(/(?:from|import\()\s*'(\.{1,2}\/[^']+)'/g)].map((m) => path.relative(SRC, path.resolve(path.dirname(path.join(SRC, file)), m[1] ?? '')));
}

function offending(select: (f: string) => boolean, forbidden: (target: string) => boolean): string[] {
  return files.filter(select).flatMap((f) => importsOf(f).filter(forbidden).map((t) => `${f} -> ${t}`));
}

describe('the server layout', () => {
  it('reads the imports it checks', () => {
    assert.ok(importsOf('compose/stores.ts').includes('jobs/jobs.store.ts'));
    assert.ok(importsOf('compose/open-stores.ts').includes('compose/open-pg-stores.ts'), 'import() too');
  });

  it('store/ imports nothing above it: only store/, config.ts, ids.ts and errors.ts', () => {
    assert.deepEqual(offending((f) => f.startsWith('store/'), (t) => !t.startsWith('store/') && !['config.ts', 'ids.ts', 'errors.ts'].includes(t)), []);
  });

  it('stores, services and runners import nothing from http/', () => {
    assert.deepEqual(offending((f) => /\.(store|service|runner)\.ts$/.test(f), (t) => t.startsWith('http/')), []);
  });

  it('compose/ is imported only by the entry points and, for the Services type, by the routes', () => {
    const allowed = (f: string) => f.startsWith('compose/') || ['serve.ts', 'main.ts', 'index.ts', 'cli/index.ts'].includes(f) || f.endsWith('.routes.ts') || f === 'http/app.ts';
    assert.deepEqual(offending((f) => !allowed(f), (t) => t.startsWith('compose/')), []);
  });
});
