// The SDK must load in browsers and edge runtimes: no static Node built-in import, no Buffer, and
// `process` only behind a `typeof process` guard. (Reading a path needs node:fs: that one import
// is dynamic, so only Node ever evaluates it.)
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../src', import.meta.url));
const files = readdirSync(SRC, { recursive: true })
  .map(String)
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));

test('no Node-only code on the browser path', () => {
  assert.ok(files.length > 10);
  for (const f of files) {
    const code = readFileSync(join(SRC, f), 'utf8').replace(/^\s*(\/\/|\*|\/\*).*$/gm, '');
    assert.doesNotMatch(code, /^import[^;]*from '(node:)?(fs|path|http|https|crypto|stream|os|url|buffer)[^']*'/m, `${f}: static Node import`);
    assert.doesNotMatch(code, /\bBuffer\b/, `${f}: Buffer`);
    for (const m of code.matchAll(/\bprocess\./g)) {
      const before = code.slice(Math.max(0, (m.index ?? 0) - 200), m.index);
      assert.match(before, /typeof process !== 'undefined'/, `${f}: unguarded process access`);
    }
  }
});
