import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Rapport } from '../src/index.ts';
import { fakeServer, json } from './fake-server.ts';

const all = Array.from({ length: 7 }, (_, i) => ({ id: `ent_${i}` }));

test('list calls: await gives the first page; for await walks every page lazily', async () => {
  const s = await fakeServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const limit = Number(url.searchParams.get('limit') ?? 20);
    const start = Number(url.searchParams.get('cursor') ?? 0);
    const data = all.slice(start, start + limit);
    json(res, 200, { data, nextCursor: start + limit < all.length ? String(start + limit) : null });
  });
  try {
    const client = new Rapport({ apiKey: 'k', baseUrl: s.url });
    const page = await client.entities.list({ limit: 3, tag: 'vip' });
    assert.deepEqual(page.data.map((e) => e.id), ['ent_0', 'ent_1', 'ent_2']);
    assert.equal(page.hasNextPage(), true);
    assert.equal(s.requests[0]?.url, '/v1/entities?limit=3&tag=vip');
    const second = await page.getNextPage();
    assert.deepEqual(second.data.map((e) => e.id), ['ent_3', 'ent_4', 'ent_5']);

    const seen: string[] = [];
    for await (const e of client.entities.list({ limit: 3 })) seen.push(e.id);
    assert.deepEqual(seen, all.map((e) => e.id));
    assert.equal(s.requests.length, 2 + 3);

    // Breaking out early fetches no further page.
    const before = s.requests.length;
    for await (const e of client.entities.list({ limit: 3 })) if (e.id === 'ent_1') break;
    assert.equal(s.requests.length, before + 1);
  } finally {
    await s.close();
  }
});
