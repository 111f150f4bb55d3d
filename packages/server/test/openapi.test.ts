// GET /v1/openapi.json: public (no key), valid OpenAPI 3.1, and in step with the routes the app
// registers: every /v1 route is documented and every documented operation exists, and every
// operation declares its success answer: a 2xx with its content type and the schema of its body
// (204 has none), the HTML, evidence and event-stream routes included.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Value } from 'typebox/value';
import { OpenApiDocument } from '../src/http/openapi.ts';
import { buildTestApp, call, type TestApp } from './helpers.ts';
import { registeredRoutes, type RegisteredRoute } from './routes.ts';

interface JsonSchema {
  type?: string;
  contentMediaType?: string;
  properties?: Record<string, unknown>;
  required?: string[];
}
interface OpenApiResponse {
  description: string;
  content?: Record<string, { schema?: JsonSchema }>;
}
interface OpenApiDoc {
  openapi: string;
  paths: Record<string, Record<string, { operationId: string; security?: unknown[]; requestBody?: unknown; parameters?: { name: string; in: string }[]; responses: Record<string, OpenApiResponse> }>>;
}

describe('GET /v1/openapi.json', () => {
  let t: TestApp;
  let doc: OpenApiDoc;
  let routes: RegisteredRoute[];

  before(async () => {
    t = await buildTestApp();
    routes = await registeredRoutes(t.services);
    const res = await call(t, null, { method: 'GET', url: '/v1/openapi.json' });
    assert.equal(res.statusCode, 200, 'needs no key');
    assert.match(String(res.headers['content-type']), /^application\/json/);
    doc = JSON.parse(res.body) as OpenApiDoc;
  });
  after(() => t.close());

  it('is a valid OpenAPI 3.1 document', async () => {
    assert.match(doc.openapi, /^3\.1\./);
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc) as unknown as Record<string, unknown>);
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2)?.slice(0, 4000));
    assert.equal(validator.version, '3.1');
  });

  it('documents every registered /v1 route, and nothing else', () => {
    const toPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const registered = routes.filter((r) => r.url.startsWith('/v1/')).map((r) => `${r.method.toLowerCase()} ${toPath(r.url)}`);
    const documented = Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m} ${p}`));
    for (const r of registered) assert.ok(documented.includes(r), `${r} is not in openapi.json`);
    for (const d of documented) assert.ok(registered.includes(d), `${d} is documented but not registered`);
    assert.ok(registered.length >= 15);
  });

  it('has unique operation ids, path parameters for every template, and marks public routes', () => {
    const ids = new Set<string>();
    for (const [p, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        assert.ok(!ids.has(op.operationId), `duplicate operationId ${op.operationId}`);
        ids.add(op.operationId);
        for (const name of [...p.matchAll(/\{([^}]+)\}/g)].map((m) => m[1])) {
          assert.ok(op.parameters?.some((x) => x.in === 'path' && x.name === name), `${method} ${p} declares {${name}}`);
        }
      }
    }
    assert.deepEqual(doc.paths['/v1/openapi.json']?.get?.security, []);
    assert.ok(doc.paths['/v1/matching/jobs']?.post?.requestBody, 'the matching request body is described');
  });

  it('documents the Location header of the 202 answers that send one (docs/api.md)', () => {
    const responses = (p: string, m: string) => (doc.paths[p]?.[m] as unknown as { responses: Record<string, { headers?: Record<string, unknown> }> }).responses;
    for (const [p, m] of [['/v1/matching/jobs', 'post'], ['/v1/reports/jobs', 'post'], ['/v1/files/{id}/reanalyze', 'post']] as const) {
      assert.ok(responses(p, m)['202']?.headers?.Location, `${m} ${p} 202 documents Location`);
    }
  });

  it('every operation declares its 2xx answer: the content type and schema of its body (204: no body)', () => {
    const undeclared: string[] = [];
    for (const [p, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const success = Object.entries(op.responses).filter(([status]) => /^2\d\d$/.test(status));
        if (success.length === 0) undeclared.push(`${method} ${p}: no 2xx answer`);
        for (const [status, res] of success) {
          if (status === '204') {
            if (res.content) undeclared.push(`${method} ${p} ${status}: a 204 has no body`);
            continue;
          }
          const types = Object.entries(res.content ?? {});
          if (types.length === 0) undeclared.push(`${method} ${p} ${status}: no content type`);
          for (const [type, media] of types) if (!media.schema) undeclared.push(`${method} ${p} ${status} ${type}: no schema`);
        }
      }
    }
    assert.deepEqual(undeclared, []);
  });

  it('describes the HTML, evidence and event-stream answers and itself', () => {
    const ok = (p: string, m = 'get') => doc.paths[p]?.[m]?.responses['200']?.content ?? {};
    for (const kind of ['matching/{matchingId}', 'reports/{reportId}']) {
      assert.deepEqual(Object.keys(ok(`/v1/${kind}/html`)), ['text/html']);
      assert.equal(ok(`/v1/${kind}/html`)['text/html']?.schema?.type, 'string');
      const evidence = ok(`/v1/${kind}/evidence`)['application/json']?.schema;
      assert.equal(evidence?.type, 'object', `${kind}/evidence`);
      for (const field of ['kind', 'target', 'group', 'pairs', 'dimensions', 'method']) assert.ok(evidence?.required?.includes(field), `${kind}/evidence requires ${field}`);
    }
    for (const p of ['/v1/events', '/v1/jobs/{id}/events', '/v1/files/events', '/v1/files/{id}/events']) {
      assert.equal(ok(p)['text/event-stream']?.schema?.contentMediaType, 'text/event-stream', p);
    }
    assert.equal(ok('/v1/openapi.json')['application/json']?.schema?.type, 'object');
    assert.ok(Value.Check(OpenApiDocument, doc), 'the document matches the schema it declares for itself');
  });

  it('says that its own route needs no key, and is the same document with a key as without one', async () => {
    const op = doc.paths['/v1/openapi.json']?.get;
    assert.ok(op, 'GET /v1/openapi.json is in the document');
    assert.deepEqual(op.security, [], 'the operation overrides the document-wide key requirement');
    const withKey = await call(t, t.main, { method: 'GET', url: '/v1/openapi.json' });
    assert.equal(withKey.statusCode, 200);
    assert.deepEqual(JSON.parse(withKey.body), doc, 'the document does not depend on who asks');
  });
});
