// Issue 33 item 10: a webhook URL the destination rules refuse (decisions §8) is a 400 at job
// creation that names the rule and the setting that allows it, instead of a job whose every
// delivery fails. Delivery-time checks stay (webhooks/dispatcher.ssrf.test.ts).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, call, insertEntity, insertMedia, json, matchingBody, type ErrorJson, type TestApp } from './helpers.ts';

describe('webhook destinations checked at job creation', () => {
  const apps: TestApp[] = [];
  const app = async (env: Record<string, string>) => {
    const t = await buildTestApp({ RATE_LIMIT_DEFAULT: '100000', RATE_LIMIT_REPORT_CREATION: '100000', ...env });
    apps.push(t);
    const mediaId = (await insertMedia(t.services, t.main.workspaceId)).id;
    const entityId = await insertEntity(t.services, t.main.workspaceId);
    return {
      matching: (url: string) => call(t, t.main, { method: 'POST', url: '/v1/matching/jobs', payload: matchingBody(mediaId, entityId, { webhook: { url } }) }),
      report: (url: string) => call(t, t.main, { method: 'POST', url: '/v1/reports/jobs', payload: { target: { type: 'entity_id', entityId }, webhook: { url } } }),
      jobs: () => t.sql.count('SELECT COUNT(*) FROM jobs'),
    };
  };
  let plain: Awaited<ReturnType<typeof app>>;
  let strict: Awaited<ReturnType<typeof app>>;
  let open: Awaited<ReturnType<typeof app>>;
  before(async () => {
    plain = await app({});
    strict = await app({ WEBHOOK_REQUIRE_HTTPS: 'true' });
    open = await app({ WEBHOOK_ALLOW_PRIVATE: 'true' });
  });
  after(async () => {
    for (const t of apps) await t.close();
  });

  const refused = (res: Awaited<ReturnType<typeof plain.matching>>, pattern: RegExp) => {
    assert.equal(res.statusCode, 400, res.body);
    const err = json<ErrorJson>(res).error;
    assert.equal(err.code, 'VALIDATION_FAILED');
    assert.equal(err.details?.length, 1, JSON.stringify(err.details));
    assert.equal(err.details?.[0]?.path, '/webhook/url');
    assert.match(err.details?.[0]?.message ?? '', pattern);
  };

  for (const [url, range] of [
    ['http://127.0.0.1:3000/hook', /127\.0\.0\.1 is a loopback address/],
    ['http://localhost:3000/hook', /localhost is a loopback address/],
    ['http://[::1]/hook', /loopback/],
    ['https://10.1.2.3/hook', /10\.1\.2\.3 is a private address/],
    ['http://169.254.169.254/latest/meta-data/', /link-local/],
  ] as const) {
    it(`refuses ${url} (matching and report jobs), naming WEBHOOK_ALLOW_PRIVATE, and creates nothing`, async () => {
      const before = await plain.jobs();
      refused(await plain.matching(url), range);
      refused(await plain.matching(url), /WEBHOOK_ALLOW_PRIVATE=true allows it/);
      refused(await plain.report(url), range);
      assert.equal(await plain.jobs(), before);
    });
  }

  it('a public https URL is accepted', async () => {
    assert.equal((await plain.matching('https://hooks.example.com/rapport')).statusCode, 202);
    assert.equal((await plain.matching('http://hooks.example.com/rapport')).statusCode, 202, 'http is fine unless WEBHOOK_REQUIRE_HTTPS');
  });

  it('with WEBHOOK_REQUIRE_HTTPS=true, plain http is refused, naming the setting', async () => {
    refused(await strict.matching('http://hooks.example.com/rapport'), /must use https.*WEBHOOK_REQUIRE_HTTPS=true/);
    assert.equal((await strict.matching('https://hooks.example.com/rapport')).statusCode, 202);
  });

  it('with WEBHOOK_ALLOW_PRIVATE=true, loopback and private destinations are accepted', async () => {
    assert.equal((await open.matching('http://127.0.0.1:3000/hook')).statusCode, 202);
    assert.equal((await open.matching('http://localhost:3000/hook')).statusCode, 202);
  });
});
