// The job-kind table: each entry is filed under its own type, and no two kinds share a route
// base, a result parameter, a result id prefix or a webhook event.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { JOB_KINDS } from './registered-kinds.ts';
import { failureOutbox } from './jobs.service.ts';
import type { Job } from './jobs.schemas.ts';

describe('the job-kind table', () => {
  const kinds = Object.entries(JOB_KINDS);

  it('files each kind under the type its jobs are stored with', () => {
    assert.deepEqual(kinds.map(([type]) => type).sort(), ['matching', 'report']);
    for (const [type, kind] of kinds) assert.equal(kind.type, type);
  });

  it('gives each kind its own routes, result ids and webhook events', () => {
    const distinct = (pick: (k: (typeof kinds)[number][1]) => string) => assert.equal(new Set(kinds.map(([, k]) => pick(k))).size, kinds.length);
    distinct((k) => k.base);
    distinct((k) => k.resultParam);
    distinct((k) => k.result.idPrefix);
    distinct((k) => k.events.completed);
    distinct((k) => k.events.failed);
  });

  it('names the failed event of a job after its kind', () => {
    for (const [type, kind] of kinds) {
      const job = { id: 'job_1', type } as Job;
      assert.equal(failureOutbox(job, { code: 'canceled', message: 'x' }, {}).type, kind.events.failed);
    }
  });
});
