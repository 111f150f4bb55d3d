// /v1/entities*: list with ?tag= and ?q=, get, label, tags, merge; validation and isolation.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, call, insertEntity, insertMedia, json, type ErrorJson, type TestApp } from '../../test/helpers.ts';
import { newId } from '../ids.ts';
import type { Entity } from './entities.schemas.ts';

describe('entities', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ RATE_LIMIT_ENTITIES: '1000' });
  });
  after(async () => t.close());

  const req = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, tenant = t.main) =>
    call(t, tenant, { method, url, ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}) });

  async function appear(entityId: string, mediaId: string, speakerIndex: number, speechSec: number): Promise<void> {
    (await t.sql.run(
      'INSERT INTO appearances (entity_id, media_id, speaker_index, speech_sec, workspace_id) VALUES (?, ?, ?, ?, ?)',
      entityId, mediaId, speakerIndex, speechSec, t.main.workspaceId,
    ));
  }

  async function badRequest(res: Awaited<ReturnType<typeof req>>, code: string, pointer: string): Promise<void> {
    assert.equal(res.statusCode, 400, res.body);
    const e = json<ErrorJson>(res).error;
    assert.equal(e.code, code);
    assert.ok(e.details?.some((d) => d.path === pointer), `${pointer} in ${JSON.stringify(e.details)}`);
  }

  it('gets an entity with its appearances and total speech', async () => {
    const id = await insertEntity(t.services, t.main.workspaceId, 'Ada');
    const m1 = await insertMedia(t.services, t.main.workspaceId);
    const m2 = await insertMedia(t.services, t.main.workspaceId);
    await appear(id, m1.id, 0, 12.5);
    await appear(id, m2.id, 1, 7.25);
    const res = await req('GET', `/v1/entities/${id}`);
    assert.equal(res.statusCode, 200);
    const e = json<Entity>(res);
    assert.equal(e.label, 'Ada');
    assert.deepEqual(e.tags, []);
    assert.equal(e.speechSec, 19.75);
    assert.equal(e.appearances.length, 2);
    assert.deepEqual(Object.keys(e).sort(), ['appearances', 'createdAt', 'enough', 'id', 'label', 'name', 'speechSec', 'tags', 'updatedAt']);
    assert.equal((await req('GET', `/v1/entities/${newId('ent')}`)).statusCode, 404);
  });

  it('lists newest first with paging, ?q= on labels and ?tag= (case-insensitive); entities without appearances only with ?include=empty', async () => {
    const a = await insertEntity(t.services, t.main.workspaceId, 'Grace Hopper');
    const b = await insertEntity(t.services, t.main.workspaceId, 'Alan Turing');
    await req('POST', `/v1/entities/${b}/tags`, { tags: ['Founder'] });
    const page = json<{ data: Entity[]; nextCursor: string | null }>(await req('GET', '/v1/entities?limit=1&include=empty'));
    assert.equal(page.data[0]?.id, b);
    assert.ok(page.nextCursor);
    const next = json<{ data: Entity[] }>(await req('GET', `/v1/entities?limit=1&include=empty&cursor=${page.nextCursor}`));
    assert.equal(next.data[0]?.id, a);
    assert.deepEqual(json<{ data: Entity[] }>(await req('GET', '/v1/entities?q=hopp&include=empty')).data.map((e) => e.id), [a]);
    assert.deepEqual(json<{ data: Entity[] }>(await req('GET', '/v1/entities?tag=founder&include=empty')).data.map((e) => e.id), [b]);
    assert.deepEqual(json<{ data: Entity[] }>(await req('GET', '/v1/entities?q=hopp')).data, [], 'no appearance: not listed by default');
    await badRequest(await req('GET', '/v1/entities?q='), 'VALIDATION_FAILED', '/query/q');
    await badRequest(await req('GET', '/v1/entities?cursor=zzz'), 'VALIDATION_FAILED', '/query/cursor');
    await badRequest(await req('GET', '/v1/entities?color=red'), 'VALIDATION_FAILED', '/query/color');
  });

  it('PATCH sets a label of 1..64 code points or clears it with null', async () => {
    const id = await insertEntity(t.services, t.main.workspaceId);
    const set = await req('PATCH', `/v1/entities/${id}`, { label: 'é'.repeat(64) });
    assert.equal(set.statusCode, 200, set.body);
    assert.equal(json<Entity>(set).label, 'é'.repeat(64));
    const cleared = await req('PATCH', `/v1/entities/${id}`, { label: null });
    assert.equal(json<Entity>(cleared).label, null);
    await badRequest(await req('PATCH', `/v1/entities/${id}`, { label: '' }), 'VALIDATION_FAILED', '/label');
    await badRequest(await req('PATCH', `/v1/entities/${id}`, { label: 'x'.repeat(65) }), 'VALIDATION_FAILED', '/label');
    await badRequest(await req('PATCH', `/v1/entities/${id}`, {}), 'VALIDATION_FAILED', '/label');
    await badRequest(await req('PATCH', `/v1/entities/${id}`, { label: 'a', extra: 1 }), 'VALIDATION_FAILED', '/extra');
    await badRequest(await req('PATCH', `/v1/entities/${id}`, { label: 5 }), 'VALIDATION_FAILED', '/label');
    assert.equal((await req('PATCH', `/v1/entities/${newId('ent')}`, { label: 'x' })).statusCode, 404);
  });

  it('adds tags (kept once), removes one (idempotently), and bounds them', async () => {
    const id = await insertEntity(t.services, t.main.workspaceId);
    const added = json<Entity>(await req('POST', `/v1/entities/${id}/tags`, { tags: ['vip', 'sales', 'vip'] }));
    assert.deepEqual(added.tags, ['vip', 'sales']);
    const again = json<Entity>(await req('POST', `/v1/entities/${id}/tags`, { tags: ['sales', 'eu'] }));
    assert.deepEqual(again.tags, ['vip', 'sales', 'eu']);
    const removed = await req('DELETE', `/v1/entities/${id}/tags/sales`);
    assert.equal(removed.statusCode, 200);
    assert.deepEqual(json<Entity>(removed).tags, ['vip', 'eu']);
    assert.equal((await req('DELETE', `/v1/entities/${id}/tags/sales`)).statusCode, 200);
    const spaced = await req('POST', `/v1/entities/${id}/tags`, { tags: ['two words'] });
    assert.equal(spaced.statusCode, 200);
    assert.deepEqual(json<Entity>(await req('DELETE', `/v1/entities/${id}/tags/two%20words`)).tags, ['vip', 'eu']);
    await badRequest(await req('POST', `/v1/entities/${id}/tags`, { tags: [] }), 'VALIDATION_FAILED', '/tags');
    await badRequest(await req('POST', `/v1/entities/${id}/tags`, { tags: Array.from({ length: 21 }, (_v, i) => `t${i}`) }), 'VALIDATION_FAILED', '/tags');
    await badRequest(await req('POST', `/v1/entities/${id}/tags`, { tags: [''] }), 'VALIDATION_FAILED', '/tags/0');
    await badRequest(await req('POST', `/v1/entities/${id}/tags`, { tags: ['ok', 'x'.repeat(65)] }), 'VALIDATION_FAILED', '/tags/1');
    assert.equal((await req('POST', `/v1/entities/${id}/tags`, { tags: ['y'.repeat(64)] })).statusCode, 200);
    for (let i = 0; i < 4; i++) await req('POST', `/v1/entities/${id}/tags`, { tags: Array.from({ length: 20 }, (_v, k) => `bulk-${i}-${k}`) });
    await badRequest(await req('POST', `/v1/entities/${id}/tags`, { tags: Array.from({ length: 20 }, (_v, k) => `more-${k}`) }), 'VALIDATION_FAILED', '/tags');
    assert.equal((await req('POST', `/v1/entities/${newId('ent')}/tags`, { tags: ['a'] })).statusCode, 404);
    assert.equal((await req('DELETE', `/v1/entities/${newId('ent')}/tags/a`)).statusCode, 404);
  });

  it('an edit of the tags that changes nothing leaves updatedAt where it was', async () => {
    const id = await insertEntity(t.services, t.main.workspaceId);
    const tagged = json<Entity>(await req('POST', `/v1/entities/${id}/tags`, { tags: ['vip'] }));
    await new Promise((r) => setTimeout(r, 5));
    const absent = json<Entity>(await req('DELETE', `/v1/entities/${id}/tags/nothere`));
    const present = json<Entity>(await req('POST', `/v1/entities/${id}/tags`, { tags: ['vip'] }));
    assert.equal(absent.updatedAt, tagged.updatedAt, 'removing an absent tag');
    assert.equal(present.updatedAt, tagged.updatedAt, 'adding a tag already there');
    await new Promise((r) => setTimeout(r, 5));
    const removed = json<Entity>(await req('DELETE', `/v1/entities/${id}/tags/vip`));
    assert.ok(removed.updatedAt > tagged.updatedAt, 'a real change moves it');
  });

  it('merges entities: appearances and tags move into `into`, the others are gone', async () => {
    const into = await insertEntity(t.services, t.main.workspaceId);
    const from1 = await insertEntity(t.services, t.main.workspaceId, 'Known name');
    const from2 = await insertEntity(t.services, t.main.workspaceId);
    const media = await insertMedia(t.services, t.main.workspaceId);
    await appear(into, media.id, 0, 3);
    await appear(from1, media.id, 1, 4);
    await appear(from2, media.id, 2, 5);
    await req('POST', `/v1/entities/${from2}/tags`, { tags: ['moved'] });
    const res = await req('POST', '/v1/entities/merge', { into, from: [from1, from2] });
    assert.equal(res.statusCode, 200, res.body);
    const merged = json<Entity>(res);
    assert.equal(merged.id, into);
    assert.equal(merged.label, 'Known name');
    assert.deepEqual(merged.tags, ['moved']);
    assert.equal(merged.speechSec, 12);
    assert.equal(merged.appearances.length, 3);
    assert.equal((await req('GET', `/v1/entities/${from1}`)).statusCode, 404);
    assert.equal((await req('GET', `/v1/entities/${from2}`)).statusCode, 404);
  });

  it('merge refuses unknown ids (REFERENCE_NOT_FOUND naming each), `into` inside `from`, and bad bodies', async () => {
    const a = await insertEntity(t.services, t.main.workspaceId);
    const foreign = await insertEntity(t.services, t.other.workspaceId);
    const unknown = await req('POST', '/v1/entities/merge', { into: newId('ent'), from: [a, foreign] });
    await badRequest(unknown, 'REFERENCE_NOT_FOUND', '/into');
    assert.ok(json<ErrorJson>(unknown).error.details?.some((d) => d.path === '/from/1'));
    assert.equal(json<ErrorJson>(unknown).error.details?.length, 2);
    await badRequest(await req('POST', '/v1/entities/merge', { into: a, from: [a] }), 'VALIDATION_FAILED', '/from/0');
    await badRequest(await req('POST', '/v1/entities/merge', { into: a, from: [] }), 'VALIDATION_FAILED', '/from');
    await badRequest(await req('POST', '/v1/entities/merge', { from: [a] }), 'VALIDATION_FAILED', '/into');
    const notJson = await call(t, t.main, { method: 'POST', url: '/v1/entities/merge', headers: { 'content-type': 'application/json' }, payload: '{"into":' });
    assert.equal(notJson.statusCode, 400);
    assert.equal(json<ErrorJson>(notJson).error.code, 'INVALID_JSON');
  });

  it('another workspace gets 404 for every entity id and sees none in lists', async () => {
    const id = await insertEntity(t.services, t.main.workspaceId, 'Private');
    const o = t.other;
    assert.equal((await req('GET', `/v1/entities/${id}`, undefined, o)).statusCode, 404);
    assert.equal((await req('PATCH', `/v1/entities/${id}`, { label: 'x' }, o)).statusCode, 404);
    assert.equal((await req('POST', `/v1/entities/${id}/tags`, { tags: ['x'] }, o)).statusCode, 404);
    assert.equal((await req('DELETE', `/v1/entities/${id}/tags/x`, undefined, o)).statusCode, 404);
    assert.deepEqual(json<{ data: Entity[] }>(await req('GET', '/v1/entities', undefined, o)).data.filter((e) => e.id === id), []);
    assert.equal(json<Entity>(await req('GET', `/v1/entities/${id}`)).label, 'Private');
  });

  it('uses the entities rate class', async () => {
    const res = await req('GET', '/v1/entities');
    assert.equal(res.headers['x-ratelimit-limit'], '1000');
  });
});
