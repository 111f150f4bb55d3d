// /v1/credits and /v1/credits/transactions: balances of decisions §10 and the ledger, newest first.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, call, insertMedia, json, type TestApp } from '../../test/helpers.ts';

interface Tx { id: string; kind: string; amount: number; balanceAfter: number; jobId?: string; mediaId?: string; createdAt: string }

describe('credits', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ INITIAL_CREDITS: '50' });
  });
  after(async () => t.close());

  it('a new workspace has its initial grant: balance, reserved, available, updatedAt', async () => {
    const res = await call(t, t.main, { method: 'GET', url: '/v1/credits' });
    assert.equal(res.statusCode, 200);
    const b = json<{ balance: number; reserved: number; available: number; updatedAt: string }>(res);
    assert.equal(b.balance, 50);
    assert.equal(b.reserved, 0);
    assert.equal(b.available, 50);
    assert.match(b.updatedAt, /Z$/);
    assert.equal(res.headers['x-ratelimit-limit'], '100');
  });

  it('reserving for media shows in balance and transactions (newest first, mediaId set, jobId omitted)', async () => {
    const m = await insertMedia(t.services, t.main.workspaceId); // 30 s: 1 credit reserved
    const b = json<{ balance: number; reserved: number; available: number }>(await call(t, t.main, { method: 'GET', url: '/v1/credits' }));
    assert.deepEqual([b.balance, b.reserved, b.available], [50, 1, 49]);
    const list = json<{ data: Tx[]; nextCursor: string | null }>(await call(t, t.main, { method: 'GET', url: '/v1/credits/transactions' }));
    assert.equal(list.data[0]?.kind, 'reserve');
    assert.equal(list.data[0]?.mediaId, m.id);
    assert.equal('jobId' in (list.data[0] ?? {}), false);
    assert.equal(list.data[1]?.kind, 'grant');
    assert.equal(list.data[1]?.amount, 50);
    assert.equal(list.data[1]?.balanceAfter, 50);
    assert.equal('mediaId' in (list.data[1] ?? {}), false);
    assert.match(list.data[0]?.id ?? '', /^txn_/);
    assert.equal(list.nextCursor, null);
  });

  it('pages transactions with a cursor and refuses a bad one', async () => {
    await insertMedia(t.services, t.main.workspaceId);
    const first = json<{ data: Tx[]; nextCursor: string | null }>(await call(t, t.main, { method: 'GET', url: '/v1/credits/transactions?limit=1' }));
    assert.equal(first.data.length, 1);
    assert.ok(first.nextCursor);
    const second = json<{ data: Tx[] }>(await call(t, t.main, { method: 'GET', url: `/v1/credits/transactions?limit=1&cursor=${first.nextCursor}` }));
    assert.notEqual(second.data[0]?.id, first.data[0]?.id);
    assert.equal((await call(t, t.main, { method: 'GET', url: '/v1/credits/transactions?cursor=@@' })).statusCode, 400);
    assert.equal((await call(t, t.main, { method: 'GET', url: '/v1/credits/transactions?limit=abc' })).statusCode, 400);
  });

  it('each workspace sees only its own ledger', async () => {
    const other = json<{ data: Tx[] }>(await call(t, t.other, { method: 'GET', url: '/v1/credits/transactions' }));
    assert.deepEqual(other.data.map((x) => x.kind), ['grant']);
    assert.equal(json<{ reserved: number }>(await call(t, t.other, { method: 'GET', url: '/v1/credits' })).reserved, 0);
  });
});
