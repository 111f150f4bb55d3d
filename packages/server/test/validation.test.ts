// The validation table of decisions §2–§7 and the field bounds of interface-spec.md: every rule
// has at least one invalid body that gets 400 with the right code and a `details` pointer at the
// field at fault, and the valid edge cases are accepted.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, call, insertEntity, insertMedia, json, matchingBody, type ErrorJson, type TestApp } from './helpers.ts';

type Body = Record<string, unknown>;
interface Case {
  name: string;
  body: (b: Body) => unknown;
  code?: 'VALIDATION_FAILED' | 'REFERENCE_NOT_FOUND';
  /** A `details` path that must be present. */
  path: string;
  headers?: Record<string, string>;
}

let t: TestApp;
let mediaId: string;
let entityId: string;
let otherMediaId: string;

const media = (selector: Body): Body => ({ type: 'media_target', mediaId, selector });
const withTarget = (selector: Body) => (b: Body) => ({ ...b, target: media(selector) });
const withWebhook = (webhook: unknown) => (b: Body) => ({ ...b, webhook });
const headersN = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`x-h${i}`, 'v']));
const longUrl = (chars: number) => `https://hooks.example.com/${'a'.repeat(chars - 'https://hooks.example.com/'.length)}`;
const without = (o: Body, key: string): Body => Object.fromEntries(Object.entries(o).filter(([k]) => k !== key));

const INVALID: Case[] = [
  // Strictness: unknown fields at every level (§5 "no unknown fields anywhere").
  { name: 'unknown top-level field', body: (b) => ({ ...b, extra: 1 }), path: '/extra' },
  { name: 'unknown field in a media target', body: (b) => ({ ...b, target: { ...media({ strategy: 'dominant' }), extra: 1 } }), path: '/target/extra' },
  { name: 'unknown field in an entity reference', body: (b) => ({ ...b, group: [{ type: 'entity_id', entityId, extra: 1 }] }), path: '/group/0/extra' },
  { name: 'unknown field in a selector', body: withTarget({ strategy: 'dominant', extra: 1 }), path: '/target/selector/extra' },
  { name: 'unknown field in a timerange', body: withTarget({ strategy: 'timerange', timerange: { start_seconds: 1, extra: 2 } }), path: '/target/selector/timerange/extra' },
  { name: 'unknown field in the webhook', body: withWebhook({ url: 'https://hooks.example.com/a', extra: 1 }), path: '/webhook/extra' },
  // Shapes told apart by `type`.
  { name: 'wrong member type', body: (b) => ({ ...b, target: { type: 'person', mediaId } }), path: '/target/type' },
  { name: 'member type missing', body: (b) => ({ ...b, group: [{ entityId }] }), path: '/group/0/type' },
  { name: 'body is an array', body: () => [], path: '/' },
  // Required fields.
  { name: 'group missing', body: (b) => without(b, 'group'), path: '/group' },
  { name: 'target missing', body: (b) => without(b, 'target'), path: '/target' },
  { name: 'context missing', body: (b) => without(b, 'context'), path: '/context' },
  { name: 'mediaId missing', body: (b) => ({ ...b, target: { type: 'media_target', selector: { strategy: 'dominant' } } }), path: '/target/mediaId' },
  { name: 'selector missing', body: (b) => ({ ...b, target: { type: 'media_target', mediaId } }), path: '/target/selector' },
  { name: 'strategy missing', body: withTarget({ on_miss: 'error' }), path: '/target/selector/strategy' },
  { name: 'entityId missing', body: (b) => ({ ...b, group: [{ type: 'entity_id' }] }), path: '/group/0/entityId' },
  { name: 'webhook url missing', body: withWebhook({ headers: {} }), path: '/webhook/url' },
  // Constants and enumerations.
  { name: 'context not the constant', body: (b) => ({ ...b, context: 'behavioral_profile' }), path: '/context' },
  { name: 'unknown strategy', body: withTarget({ strategy: 'loudest' }), path: '/target/selector/strategy' },
  { name: 'unknown on_miss', body: withTarget({ strategy: 'dominant', on_miss: 'ignore' }), path: '/target/selector/on_miss' },
  // No type coercion.
  { name: 'speaker_index as a string', body: withTarget({ strategy: 'speaker_index', speaker_index: '1' }), path: '/target/selector/speaker_index' },
  { name: 'start_seconds as a string', body: withTarget({ strategy: 'timerange', timerange: { start_seconds: '1' } }), path: '/target/selector/timerange/start_seconds' },
  { name: 'label as a number', body: (b) => ({ ...b, label: 5 }), path: '/label' },
  { name: 'group as an object', body: (b) => ({ ...b, group: { 0: { type: 'entity_id', entityId } } }), path: '/group' },
  { name: 'mediaId as a number', body: (b) => ({ ...b, target: { type: 'media_target', mediaId: 1, selector: { strategy: 'dominant' } } }), path: '/target/mediaId' },
  { name: 'webhook header value as a number', body: withWebhook({ url: 'https://hooks.example.com/a', headers: { 'x-a': 1 } }), path: '/webhook/headers/x-a' },
  // label 1..64 code points.
  { name: 'label empty', body: (b) => ({ ...b, label: '' }), path: '/label' },
  { name: 'label 65 characters', body: (b) => ({ ...b, label: 'a'.repeat(65) }), path: '/label' },
  { name: 'label 65 emoji', body: (b) => ({ ...b, label: '😀'.repeat(65) }), path: '/label' },
  // hint 1..1024.
  { name: 'hint empty', body: withTarget({ strategy: 'magic_hint', hint: '' }), path: '/target/selector/hint' },
  { name: 'hint 1025 characters', body: withTarget({ strategy: 'magic_hint', hint: 'h'.repeat(1025) }), path: '/target/selector/hint' },
  // ids 1..256.
  { name: 'mediaId empty', body: (b) => ({ ...b, target: { type: 'media_target', mediaId: '', selector: { strategy: 'dominant' } } }), path: '/target/mediaId' },
  { name: 'mediaId 257 characters', body: (b) => ({ ...b, target: { type: 'media_target', mediaId: 'm'.repeat(257), selector: { strategy: 'dominant' } } }), path: '/target/mediaId' },
  { name: 'entityId empty', body: (b) => ({ ...b, group: [{ type: 'entity_id', entityId: '' }] }), path: '/group/0/entityId' },
  { name: 'entityId 257 characters', body: (b) => ({ ...b, group: [{ type: 'entity_id', entityId: 'e'.repeat(257) }] }), path: '/group/0/entityId' },
  { name: 'selector entity_id empty', body: withTarget({ strategy: 'entity_id', entity_id: '' }), path: '/target/selector/entity_id' },
  { name: 'selector entity_id 257 characters', body: withTarget({ strategy: 'entity_id', entity_id: 'e'.repeat(257) }), path: '/target/selector/entity_id' },
  // speaker_index 0..2^53-1, integer.
  { name: 'speaker_index negative', body: withTarget({ strategy: 'speaker_index', speaker_index: -1 }), path: '/target/selector/speaker_index' },
  { name: 'speaker_index not an integer', body: withTarget({ strategy: 'speaker_index', speaker_index: 1.5 }), path: '/target/selector/speaker_index' },
  { name: 'speaker_index over 2^53-1', body: withTarget({ strategy: 'speaker_index', speaker_index: 9007199254740992 }), path: '/target/selector/speaker_index' },
  // timerange.
  { name: 'start_seconds negative', body: withTarget({ strategy: 'timerange', timerange: { start_seconds: -1 } }), path: '/target/selector/timerange/start_seconds' },
  { name: 'end_seconds negative', body: withTarget({ strategy: 'timerange', timerange: { end_seconds: -0.5 } }), path: '/target/selector/timerange/end_seconds' },
  { name: 'start after end', body: withTarget({ strategy: 'timerange', timerange: { start_seconds: 10, end_seconds: 5 } }), path: '/target/selector/timerange/end_seconds' },
  { name: 'start equal to end', body: withTarget({ strategy: 'timerange', timerange: { start_seconds: 5, end_seconds: 5 } }), path: '/target/selector/timerange/end_seconds' },
  { name: 'timerange not an object', body: withTarget({ strategy: 'timerange', timerange: [0, 1] }), path: '/target/selector/timerange' },
  // Fields a strategy requires: present and not null (§5).
  { name: 'entity_id missing for strategy entity_id', body: withTarget({ strategy: 'entity_id' }), path: '/target/selector/entity_id' },
  { name: 'entity_id null for strategy entity_id', body: withTarget({ strategy: 'entity_id', entity_id: null }), path: '/target/selector/entity_id' },
  { name: 'hint missing for magic_hint', body: withTarget({ strategy: 'magic_hint' }), path: '/target/selector/hint' },
  { name: 'hint null for magic_hint', body: withTarget({ strategy: 'magic_hint', hint: null }), path: '/target/selector/hint' },
  { name: 'speaker_index missing', body: withTarget({ strategy: 'speaker_index' }), path: '/target/selector/speaker_index' },
  { name: 'speaker_index null', body: withTarget({ strategy: 'speaker_index', speaker_index: null }), path: '/target/selector/speaker_index' },
  { name: 'timerange missing', body: withTarget({ strategy: 'timerange' }), path: '/target/selector/timerange' },
  { name: 'timerange null', body: withTarget({ strategy: 'timerange', timerange: null }), path: '/target/selector/timerange' },
  { name: 'required field missing in a group member', body: (b) => ({ ...b, group: [{ type: 'entity_id', entityId }, media({ strategy: 'magic_hint' })] }), path: '/group/1/selector/hint' },
  // group 1..20.
  { name: 'group empty', body: (b) => ({ ...b, group: [] }), path: '/group' },
  { name: 'group of 21', body: (b) => ({ ...b, group: Array.from({ length: 21 }, () => ({ type: 'entity_id', entityId })) }), path: '/group' },
  // webhook url.
  { name: 'webhook url relative', body: withWebhook({ url: '/hooks/rapport' }), path: '/webhook/url' },
  { name: 'webhook url ftp', body: withWebhook({ url: 'ftp://hooks.example.com/a' }), path: '/webhook/url' },
  { name: 'webhook url mailto', body: withWebhook({ url: 'mailto:ops@example.com' }), path: '/webhook/url' },
  { name: 'webhook url over 2048 characters', body: withWebhook({ url: longUrl(2049) }), path: '/webhook/url' },
  // webhook headers.
  ...['host', 'Content-Type', 'content-length', 'transfer-encoding', 'Connection', 'user-agent', 'service-signature', 'Service-Custom'].map((h): Case => ({
    name: `webhook header ${h} reserved`,
    body: withWebhook({ url: 'https://hooks.example.com/a', headers: { [h]: 'x' } }),
    path: `/webhook/headers/${h}`,
  })),
  { name: 'webhook header value with CR/LF', body: withWebhook({ url: 'https://hooks.example.com/a', headers: { 'x-a': 'a\r\nx-b: b' } }), path: '/webhook/headers/x-a' },
  { name: 'webhook header value with LF', body: withWebhook({ url: 'https://hooks.example.com/a', headers: { 'x-a': 'a\nb' } }), path: '/webhook/headers/x-a' },
  { name: 'webhook header value over 1024', body: withWebhook({ url: 'https://hooks.example.com/a', headers: { 'x-a': 'v'.repeat(1025) } }), path: '/webhook/headers/x-a' },
  { name: 'webhook header name not a token', body: withWebhook({ url: 'https://hooks.example.com/a', headers: { 'x a': 'v' } }), path: '/webhook/headers/x a' },
  { name: 'webhook over 20 headers', body: withWebhook({ url: 'https://hooks.example.com/a', headers: headersN(21) }), path: '/webhook/headers' },
  // idempotency key.
  { name: 'idempotencyKey empty', body: (b) => ({ ...b, idempotencyKey: '' }), path: '/idempotencyKey' },
  { name: 'idempotencyKey 256 characters', body: (b) => ({ ...b, idempotencyKey: 'k'.repeat(256) }), path: '/idempotencyKey' },
  { name: 'body key and header differ', body: (b) => ({ ...b, idempotencyKey: 'key-a' }), headers: { 'idempotency-key': 'key-b' }, path: '/idempotencyKey' },
  // References (§5): 400 REFERENCE_NOT_FOUND pointing at the reference.
  { name: 'unknown mediaId', code: 'REFERENCE_NOT_FOUND', body: (b) => ({ ...b, target: { type: 'media_target', mediaId: 'med_doesnotexist0000000000', selector: { strategy: 'dominant' } } }), path: '/target/mediaId' },
  { name: 'unknown entityId in group', code: 'REFERENCE_NOT_FOUND', body: (b) => ({ ...b, group: [{ type: 'entity_id', entityId }, { type: 'entity_id', entityId: 'ent_doesnotexist000000000' }] }), path: '/group/1/entityId' },
  { name: 'unknown selector entity_id', code: 'REFERENCE_NOT_FOUND', body: withTarget({ strategy: 'entity_id', entity_id: 'ent_doesnotexist000000000' }), path: '/target/selector/entity_id' },
  { name: "another workspace's media", code: 'REFERENCE_NOT_FOUND', body: (b) => ({ ...b, group: [{ type: 'media_target', mediaId: otherMediaId, selector: { strategy: 'dominant' } }] }), path: '/group/0/mediaId' },
  // The schema is checked first: VALIDATION_FAILED wins over REFERENCE_NOT_FOUND.
  { name: 'unknown media and a schema fault', body: (b) => ({ ...b, label: '', target: { type: 'media_target', mediaId: 'med_doesnotexist0000000000', selector: { strategy: 'dominant' } } }), path: '/label' },
  { name: 'unknown media and differing idempotency keys', body: (b) => ({ ...b, idempotencyKey: 'key-a', target: { type: 'media_target', mediaId: 'med_doesnotexist0000000000', selector: { strategy: 'dominant' } } }), headers: { 'idempotency-key': 'key-b' }, path: '/idempotencyKey' },
  { name: 'unknown media and a rule fault', body: (b) => ({ ...b, target: { type: 'media_target', mediaId: 'med_doesnotexist0000000000', selector: { strategy: 'magic_hint' } } }), path: '/target/selector/hint' },
];

const VALID: { name: string; body: (b: Body) => unknown }[] = [
  { name: 'the base body', body: (b) => b },
  { name: '64-character label', body: (b) => ({ ...b, label: 'a'.repeat(64) }) },
  { name: 'label of 64 emoji (code points, not UTF-16 units)', body: (b) => ({ ...b, label: '😀'.repeat(64) }) },
  { name: '1-character label', body: (b) => ({ ...b, label: 'x' }) },
  { name: '1024-character hint', body: withTarget({ strategy: 'magic_hint', hint: 'h'.repeat(1024) }) },
  { name: '1024 emoji hint', body: withTarget({ strategy: 'magic_hint', hint: '🎤'.repeat(1024) }) },
  { name: 'on_miss omitted', body: withTarget({ strategy: 'speaker_index', speaker_index: 0 }) },
  { name: 'on_miss fallback_dominant', body: withTarget({ strategy: 'magic_hint', hint: 'the interviewer', on_miss: 'fallback_dominant' }) },
  { name: 'nullable fields null where not required', body: withTarget({ strategy: 'dominant', on_miss: 'error', entity_id: null, hint: null, speaker_index: null, timerange: null }) },
  { name: 'fields a strategy does not use are ignored', body: withTarget({ strategy: 'dominant', hint: 'ignored', speaker_index: 3, timerange: { start_seconds: 1 } }) },
  { name: 'timerange with both ends null', body: withTarget({ strategy: 'timerange', timerange: { start_seconds: null, end_seconds: null } }) },
  { name: 'timerange empty object', body: withTarget({ strategy: 'timerange', timerange: {} }) },
  { name: 'timerange with only an end', body: withTarget({ strategy: 'timerange', timerange: { end_seconds: 12.5 } }) },
  { name: 'timerange from 0', body: withTarget({ strategy: 'timerange', timerange: { start_seconds: 0, end_seconds: 0.1 } }) },
  { name: 'speaker_index 2^53-1', body: withTarget({ strategy: 'speaker_index', speaker_index: 9007199254740991 }) },
  // The group member differs from the target: the same entity on both sides is refused (decisions §14, self-match.test.ts).
  { name: 'selector entity_id that exists', body: () => ({ ...matchingBody(mediaId, entityId), target: media({ strategy: 'entity_id', entity_id: entityId }), group: [media({ strategy: 'dominant' })] }) },
  { name: 'group of 20', body: (b) => ({ ...b, group: Array.from({ length: 20 }, () => ({ type: 'entity_id', entityId })) }) },
  { name: 'group mixing both shapes', body: (b) => ({ ...b, group: [{ type: 'entity_id', entityId }, media({ strategy: 'speaker_index', speaker_index: 1 })] }) },
  { name: 'webhook url of 2048 characters', body: withWebhook({ url: longUrl(2048) }) },
  { name: 'webhook http url, 20 headers, 1024-character value', body: withWebhook({ url: 'http://hooks.example.com/a', headers: { ...headersN(19), 'x-long': 'v'.repeat(1024) } }) },
  { name: 'idempotencyKey of 255 characters', body: (b) => ({ ...b, idempotencyKey: `${'k'.repeat(250)}${Math.random().toString(36).slice(2, 7)}` }) },
];

describe('POST /v1/matching/jobs validation', () => {
  before(async () => {
    t = await buildTestApp({ RATE_LIMIT_DEFAULT: '100000' });
    mediaId = (await insertMedia(t.services, t.main.workspaceId)).id;
    entityId = await insertEntity(t.services, t.main.workspaceId, 'Alex');
    otherMediaId = (await insertMedia(t.services, t.other.workspaceId)).id;
  });
  after(() => t.close());

  for (const c of INVALID) {
    it(`400 ${c.code ?? 'VALIDATION_FAILED'}: ${c.name}`, async () => {
      const before = (await t.sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM jobs'))?.n;
      const res = await call(t, t.main, { method: 'POST', url: '/v1/matching/jobs', payload: c.body(matchingBody(mediaId, entityId)) as object, headers: c.headers ?? {} });
      assert.equal(res.statusCode, 400, res.body);
      const body = json<ErrorJson>(res);
      assert.equal(body.error.code, c.code ?? 'VALIDATION_FAILED', res.body);
      assert.ok(body.error.details && body.error.details.length > 0, 'details present');
      assert.ok(body.error.details.some((d) => d.path === c.path), `details name ${c.path}: ${JSON.stringify(body.error.details)}`);
      for (const d of body.error.details) assert.match(d.path, /^\//, 'details paths are JSON Pointers');
      assert.equal(body.error.requestId, res.headers['x-request-id']);
      assert.equal((await t.sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM jobs'))?.n, before, 'no job was created');
    });
  }

  for (const c of VALID) {
    it(`202: ${c.name}`, async () => {
      const res = await call(t, t.main, { method: 'POST', url: '/v1/matching/jobs', payload: c.body(matchingBody(mediaId, entityId)) as object });
      assert.equal(res.statusCode, 202, res.body);
      assert.match(json<{ jobId: string }>(res).jobId, /^job_[A-Za-z0-9]{20,}$/);
    });
  }

  it('names every field at fault at once', async () => {
    const res = await call(t, t.main, {
      method: 'POST',
      url: '/v1/matching/jobs',
      payload: { ...matchingBody(mediaId, entityId), label: '', extra: 1, context: 'nope' },
    });
    const paths = json<ErrorJson>(res).error.details?.map((d) => d.path) ?? [];
    for (const p of ['/label', '/extra', '/context']) assert.ok(paths.includes(p), `${p} in ${paths.join(', ')}`);
  });

  it('the same body in a header and body with equal keys is accepted', async () => {
    const res = await call(t, t.main, { method: 'POST', url: '/v1/matching/jobs', payload: { ...matchingBody(mediaId, entityId), idempotencyKey: 'same-key' }, headers: { 'idempotency-key': 'same-key' } });
    assert.equal(res.statusCode, 202, res.body);
  });
});

describe('POST /v1/reports/jobs validation', () => {
  before(async () => {
    t = await buildTestApp({ RATE_LIMIT_DEFAULT: '100000', RATE_LIMIT_REPORT_CREATION: '100000' });
    mediaId = (await insertMedia(t.services, t.main.workspaceId)).id;
    entityId = await insertEntity(t.services, t.main.workspaceId);
  });
  after(() => t.close());

  const post = (payload: unknown) => call(t, t.main, { method: 'POST', url: '/v1/reports/jobs', payload: payload as object });

  it('accepts a target alone, and context behavioral_profile', async () => {
    assert.equal((await post({ target: { type: 'entity_id', entityId } })).statusCode, 202);
    assert.equal((await post({ target: media({ strategy: 'dominant' }), context: 'behavioral_profile', label: 'a'.repeat(64) })).statusCode, 202);
  });

  for (const [name, payload, path] of [
    ['a group (not a report field)', () => ({ target: { type: 'entity_id', entityId }, group: [] }), '/group'],
    ['the matching context', () => ({ target: { type: 'entity_id', entityId }, context: 'behavioral_compatibility' }), '/context'],
    ['a required selector field missing', () => ({ target: media({ strategy: 'speaker_index' }) }), '/target/selector/speaker_index'],
    ['a reserved webhook header', () => ({ target: { type: 'entity_id', entityId }, webhook: { url: 'https://h.example.com', headers: { host: 'x' } } }), '/webhook/headers/host'],
  ] as const) {
    it(`400 VALIDATION_FAILED: ${name}`, async () => {
      const res = await post(payload());
      assert.equal(res.statusCode, 400, res.body);
      const body = json<ErrorJson>(res);
      assert.equal(body.error.code, 'VALIDATION_FAILED');
      assert.ok(body.error.details?.some((d) => d.path === path), res.body);
    });
  }

  it('400 REFERENCE_NOT_FOUND for an unknown entity', async () => {
    const res = await post({ target: { type: 'entity_id', entityId: 'ent_doesnotexist000000000' } });
    assert.equal(res.statusCode, 400);
    assert.deepEqual(json<ErrorJson>(res).error.details?.map((d) => d.path), ['/target/entityId']);
  });
});

describe('query and path validation', () => {
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  for (const [url, path] of [
    ['/v1/jobs?limit=0', '/query/limit'],
    ['/v1/jobs?limit=101', '/query/limit'],
    ['/v1/jobs?limit=abc', '/query/limit'],
    ['/v1/jobs?status=done', '/query/status'],
    ['/v1/jobs?unknown=1', '/query/unknown'],
    ['/v1/jobs?cursor=not-a-cursor', '/query/cursor'],
  ] as const) {
    it(`GET ${url} → 400 at ${path}`, async () => {
      const res = await call(t, t.main, { method: 'GET', url });
      assert.equal(res.statusCode, 400, res.body);
      const body = json<ErrorJson>(res);
      assert.equal(body.error.code, 'VALIDATION_FAILED');
      assert.ok(body.error.details?.some((d) => d.path === path), res.body);
    });
  }

  it('a value outside a set of literals is one detail naming them all, as an enum is', async () => {
    for (const [url, path, message] of [
      ['/v1/jobs?type=bogus', '/query/type', 'must be one of: matching, report'],
      ['/v1/jobs?status=done', '/query/status', 'must be one of: queued, running, succeeded, failed'],
    ] as const) {
      const res = await call(t, t.main, { method: 'GET', url });
      assert.deepEqual(json<ErrorJson>(res).error.details, [{ path, message }], res.body);
    }
  });

  it('a nullable field of the wrong type is one detail, "must be integer or null"', async () => {
    const body = { ...matchingBody('med_x', 'ent_x'), target: { type: 'media_target', mediaId: 'med_x', selector: { strategy: 'speaker_index', speaker_index: '1' } } };
    const res = await call(t, t.main, { method: 'POST', url: '/v1/matching/jobs', payload: body });
    assert.deepEqual(json<ErrorJson>(res).error.details, [{ path: '/target/selector/speaker_index', message: 'must be integer or null' }], res.body);
  });

  it('a nullable field whose value has the right type names only what is wrong with it', async () => {
    const entityId = await insertEntity(t.services, t.main.workspaceId);
    const res = await call(t, t.main, { method: 'PATCH', url: `/v1/entities/${entityId}`, payload: { label: 'Bo\u001bb' } });
    const details = json<ErrorJson>(res).error.details ?? [];
    assert.equal(details.length, 1, res.body);
    assert.equal(details[0]?.path, '/label');
    assert.match(details[0]?.message ?? '', /control characters/);
  });

  it('limit 1 and 100 are accepted', async () => {
    assert.equal((await call(t, t.main, { method: 'GET', url: '/v1/jobs?limit=1' })).statusCode, 200);
    assert.equal((await call(t, t.main, { method: 'GET', url: '/v1/jobs?limit=100' })).statusCode, 200);
  });
});
