// The service's compile cache (src/compile-cache.ts): `npm start`'s process writes the compiled
// code of the modules it loaded, the engine's among them, to DATA_DIR/compile-cache (made 0700)
// once it is ready and while it runs, so that the analysis processes it starts later find the
// engine there (before, nothing was kept and every process compiled every module).
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { tempDir } from './helpers.ts';

const MAIN = path.join(import.meta.dirname, '..', 'src', 'main.ts');

describe('the compile cache of npm start', { timeout: 60_000 }, () => {
  const dir = tempDir('rapport-compile-cache-');
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('holds the compiled code of the service\'s modules once it is ready, in a private directory', async () => {
    const child = spawn(process.execPath, [MAIN], {
      env: { PATH: process.env.PATH ?? '', DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      let ready = false;
      for await (const line of createInterface({ input: child.stdout as NodeJS.ReadableStream })) {
        if (/listening on http/.test(line)) {
          ready = true;
          break;
        }
      }
      assert.ok(ready, 'the service started');
      const cache = path.join(dir, 'compile-cache');
      assert.equal(statSync(cache).mode & 0o777, 0o700);
      // One file per module (named by a hash of its path), under a directory per Node version:
      // the service loads several hundred (fastify, pg, the engine...).
      const files = readdirSync(cache, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
      assert.ok(files.length >= 300, `${files.length} modules cached`);
    } finally {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }
  });
});
