// scripts/check-cycles.ts (run by `npm run lint`): a cycle made only of `import type` fails the
// check too, as a cycle of value imports does; so does a cycle across workspace packages through
// their `@scope/name` imports; files without a cycle pass.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from './helpers.ts';

const SCRIPT = path.join(import.meta.dirname, '..', '..', '..', 'scripts', 'check-cycles.ts');

function check(dir: string) {
  return spawnSync(process.execPath, [SCRIPT, dir], { encoding: 'utf8' });
}

/** Writes `files` (relative path -> text) under `at`, making folders as needed. */
function writeTree(at: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(at, name)), { recursive: true });
    writeFileSync(path.join(at, name), text);
  }
}

describe('the import cycle check', { timeout: 60_000 }, () => {
  const dir = tempDir('rapport-cycles-');
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('fails on a cycle of type-only imports, naming its files', () => {
    const at = path.join(dir, 'typed');
    writeTree(at, {
      'container.ts': "import type { Files } from './files.ts';\nexport interface Container { files: Files }\n",
      'files.ts': "import type { Container } from './container.ts';\nexport class Files { constructor(readonly all: Container) {} }\n",
    });
    const out = check(at);
    assert.equal(out.status, 1, out.stdout + out.stderr);
    assert.match(out.stderr, /1 import cycle/);
    assert.match(out.stderr, /container\.ts -> files\.ts -> container\.ts|files\.ts -> container\.ts -> files\.ts/);
  });

  it('passes when the dependencies are given without a cycle', () => {
    const at = path.join(dir, 'explicit');
    writeTree(at, {
      'files.ts': "export interface FilesDeps { maxBytes: number }\nexport class Files { constructor(readonly deps: FilesDeps) {} }\n",
      'container.ts': "import type { Files } from './files.ts';\nexport interface Container { files: Files }\n",
    });
    const out = check(at);
    assert.equal(out.status, 0, out.stdout + out.stderr);
    assert.match(out.stdout, /no import cycles among 2 files/);
  });

  it('fails on a cycle across workspace packages imported by their package names', () => {
    const packages = path.join(dir, 'workspace', 'packages');
    for (const [name, other] of [['alpha', 'beta'], ['beta', 'alpha']] as const) {
      const [own, peer] = [name, other].map((n) => (n === 'alpha' ? 'A' : 'B'));
      writeTree(path.join(packages, name), {
        'package.json': JSON.stringify({ name: `@cyc/${name}`, exports: { '.': './src/index.ts' } }),
        'src/index.ts': `import type { ${peer} } from '@cyc/${other}';\nexport type ${own} = { peer?: ${peer} };\n`,
      });
    }
    const out = check(packages);
    assert.equal(out.status, 1, out.stdout + out.stderr);
    assert.match(out.stderr, /alpha\/src\/index\.ts -> beta\/src\/index\.ts|beta\/src\/index\.ts -> alpha\/src\/index\.ts/);
  });
});
