// docs/api.md documents every error code of http/errors.ts (fastify keeps the same test for its
// errors), every job failure code, every /v1 route, and every configuration variable.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ERRORS } from '../src/errors.ts';
import { JOB_ERROR_CODES } from '../src/jobs/job-failure.ts';
import { buildTestApp } from './helpers.ts';
import { registeredRoutes } from './routes.ts';

const doc = readFileSync(path.join(import.meta.dirname, '..', '..', '..', 'docs', 'api.md'), 'utf8');

describe('docs/api.md', () => {
  it('documents every error code with its status', () => {
    for (const [code, { status }] of Object.entries(ERRORS)) {
      const row = doc.split('\n').find((l) => l.startsWith('|') && l.includes(`\`${code}\``));
      assert.ok(row, `${code} is documented in a table row`);
      assert.ok(row.includes(String(status)), `${code} is documented with status ${status}`);
    }
  });

  it('documents every job failure code', () => {
    for (const code of JOB_ERROR_CODES) assert.ok(doc.includes(`\`${code}\``), `${code} is documented`);
  });

  it('documents every /v1 route', async () => {
    const t = await buildTestApp();
    try {
      for (const r of await registeredRoutes(t.services)) {
        if (!r.url.startsWith('/v1/')) continue;
        assert.ok(doc.includes(`${r.method} ${r.url}`), `\`${r.method} ${r.url}\` is in docs/api.md`);
      }
    } finally {
      await t.close();
    }
  });

  it('documents every configuration variable', () => {
    const config = readFileSync(path.join(import.meta.dirname, '..', 'src', 'config.ts'), 'utf8');
    const names = new Set([...config.matchAll(/\b(?:int|bool|oneOf|optional)\('([A-Z_]+)'/g)].map((m) => m[1] as string));
    assert.ok(names.size > 10);
    for (const name of names) assert.ok(doc.includes(`\`${name}\``), `${name} is documented`);
  });
});
