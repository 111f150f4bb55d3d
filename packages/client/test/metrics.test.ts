// The measurements as JSON (the default) or as the service's CSV file (`?format=csv`), for files
// and entities alike, and the older call shape `metrics(id, options)` still working.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Rapport } from '../src/index.ts';
import { fakeServer, json } from './fake-server.ts';

const CSV = 'media,speaker,speechSec (s)\nmed_1,0,12.5\n';

test('metrics answer JSON by default and the CSV text with format csv, for files and entities', async () => {
  const s = await fakeServer((req, res) => {
    if (req.url.endsWith('?format=csv')) {
      res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8' });
      return void res.end(CSV);
    }
    json(res, 200, req.url.startsWith('/v1/files/') ? { mediaId: 'med_1', speakers: [] } : { entityId: 'ent_1', label: null, metrics: null, appearances: [] });
  });
  try {
    const client = new Rapport({ apiKey: 'k', baseUrl: s.url });
    assert.equal(await client.files.metrics('med_1', { format: 'csv' }), CSV);
    assert.equal(await client.entities.metrics('ent_1', { format: 'csv' }, { headers: { 'x-trace': 't1' } }), CSV);
    assert.deepEqual(s.requests.map((r) => [r.url, r.headers.accept]), [
      ['/v1/files/med_1/metrics?format=csv', 'text/csv'],
      ['/v1/entities/ent_1/metrics?format=csv', 'text/csv'],
    ]);
    assert.equal(s.requests[1]?.headers['x-trace'], 't1', 'the options still apply');

    assert.equal((await client.files.metrics('med_1')).mediaId, 'med_1');
    assert.equal((await client.files.metrics('med_1', { format: 'json' })).mediaId, 'med_1');
    const controller = new AbortController();
    assert.equal((await client.entities.metrics('ent_1', { signal: controller.signal })).entityId, 'ent_1');
    assert.deepEqual(s.requests.slice(2).map((r) => [r.url, r.headers.accept]), [
      ['/v1/files/med_1/metrics', 'application/json'],
      ['/v1/files/med_1/metrics', 'application/json'],
      ['/v1/entities/ent_1/metrics', 'application/json'],
    ]);
  } finally {
    await s.close();
  }
});
