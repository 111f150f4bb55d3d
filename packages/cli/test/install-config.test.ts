// `npm install` and `npx rapport` print no warning of the project's own making: every dependency
// with an install script is decided in package.json's allowScripts (npm 11 warns about each one
// that is not), and .npmrc holds only keys npm knows (npm 11 warns about any other on every
// command, `npx rapport` included).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));

describe('install configuration', () => {
  it('every locked package with an install script is decided in allowScripts', () => {
    const lock = JSON.parse(readFileSync(`${root}package-lock.json`, 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean }> };
    const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { allowScripts?: Record<string, boolean> };
    const withScripts = Object.entries(lock.packages)
      .filter(([path, p]) => p.hasInstallScript === true && path.startsWith('node_modules/'))
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
    assert.ok(withScripts.length > 0, 'the lockfile lists packages with install scripts');
    const undecided = withScripts.filter((name) => typeof pkg.allowScripts?.[name] !== 'boolean');
    assert.deepEqual(undecided, [], `not covered by allowScripts: ${undecided.join(', ')}`);
  });

  it('npm reads the project configuration without an "Unknown project config" warning', () => {
    // npm_config_* from a surrounding `npm test` would hide nothing here: only .npmrc is judged.
    const res = spawnSync('npm', ['config', 'get', 'fund'], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    assert.equal(res.status, 0, res.stderr);
    assert.doesNotMatch(res.stderr, /Unknown (project )?config/i, res.stderr);
    const npmrc = readFileSync(`${root}.npmrc`, 'utf8');
    assert.doesNotMatch(npmrc, /^\s*onnxruntime-node-install\s*=/m, 'a key npm does not know');
  });
});
