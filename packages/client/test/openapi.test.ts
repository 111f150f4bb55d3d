// Drift test: the SDK's route table (src/endpoints.ts) and field lists (src/fields.ts, which the
// compiler checks against src/types.ts) must agree with the OpenAPI document the real server
// serves. A route, status, field, nullability or query parameter that changes on either side
// fails here.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startService } from '@rapport/server';
import { endpoints } from '../src/endpoints.ts';
import type { Endpoint } from '../src/endpoints.ts';
import { queryFields, requestFields, responseFields } from '../src/fields.ts';
import { APIError, ERROR_CODES, makeAPIError } from '../src/core/errors.ts';
import type { Shape } from '../src/fields.ts';

type Schema = Record<string, unknown> & {
  $ref?: string; type?: string | string[]; anyOf?: Schema[]; oneOf?: Schema[]; required?: string[];
  properties?: Record<string, Schema>; items?: Schema; nullable?: boolean;
};
interface Operation {
  parameters?: { name: string; in: string }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}
interface OpenApiDoc { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, Schema> } }

let doc: OpenApiDoc;
let service: Awaited<ReturnType<typeof startService>>;

before(async () => {
  service = await startService();
  const res = await fetch(`${service.url}/v1/openapi.json`);
  assert.equal(res.status, 200);
  doc = (await res.json()) as OpenApiDoc;
});
after(() => service.close());

const norm = (p: string): string => p.replace(/\{[^}]+\}/g, '{}');

function resolve(s: Schema | undefined): Schema | undefined {
  if (!s?.$ref) return s;
  const name = s.$ref.replace('#/components/schemas/', '');
  return resolve(doc.components?.schemas?.[name]);
}

function allowsNull(s: Schema | undefined): boolean {
  const r = resolve(s);
  if (!r) return false;
  if (r.type === 'null' || (Array.isArray(r.type) && r.type.includes('null')) || r.nullable === true) return true;
  return [...(r.anyOf ?? []), ...(r.oneOf ?? [])].some(allowsNull);
}

/** The object schema of a response, without a `| null` wrapper (by-job answers null). */
function objectOf(s: Schema | undefined): Schema | undefined {
  const r = resolve(s);
  const alts = [...(r?.anyOf ?? []), ...(r?.oneOf ?? [])].map(resolve).filter((x) => x && x.type !== 'null');
  if (!r?.properties && alts.length === 1) return alts[0];
  return r;
}

function operation(e: Endpoint): Operation | undefined {
  const path = Object.keys(doc.paths).find((p) => norm(p) === norm(e.path));
  return path ? doc.paths[path]?.[e.method.toLowerCase()] : undefined;
}

function compare(where: string, schema: Schema | undefined, shape: Shape, sdkDefaults: readonly string[] = []): void {
  assert.ok(schema?.properties, `${where}: the OpenAPI document gives no object schema`);
  const sorted = (a: Iterable<string>): string[] => [...a].sort();
  const wireRequired = sorted((schema.required ?? []).filter((f) => !sdkDefaults.includes(f)));
  assert.deepEqual(sorted(shape.required), wireRequired, `${where}: required fields`);
  assert.deepEqual(sorted([...shape.required, ...shape.optional]), sorted(Object.keys(schema.properties)), `${where}: field names`);
  const nullable = Object.entries(schema.properties).filter(([, s]) => allowsNull(s)).map(([k]) => k);
  assert.deepEqual(sorted(shape.nullable), sorted(nullable), `${where}: nullable fields`);
}

describe('the SDK agrees with GET /v1/openapi.json', () => {
  for (const [name, e] of Object.entries(endpoints) as [keyof typeof endpoints, Endpoint][]) {
    test(`${name}: ${e.method} ${e.path}`, () => {
      const op = operation(e);
      assert.ok(op, `${e.method} ${e.path} is not in the server's document`);
      const response = op.responses?.[String(e.status)];
      assert.ok(response, `${name}: no ${e.status} response (the document has ${Object.keys(op.responses ?? {}).join(', ')})`);
      if (e.response) {
        let schema = objectOf(response.content?.['application/json']?.schema);
        let typeName = e.response;
        if (typeName.startsWith('List:')) {
          assert.deepEqual([...(schema?.required ?? [])].sort(), ['data', 'nextCursor'], `${name}: a list answers { data, nextCursor }`);
          schema = resolve(schema?.properties?.data?.items);
          typeName = typeName.slice(5);
        }
        const shape = responseFields[typeName];
        assert.ok(shape, `fields.ts has no shape ${typeName}`);
        compare(`${name} response (${typeName})`, schema, shape);
      }
      const body = requestFields[name];
      if (body) compare(`${name} request body`, objectOf(op.requestBody?.content?.['application/json']?.schema), body, body.sdkDefaults);
      const q = queryFields[name];
      if (q) {
        const params = (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
        assert.deepEqual([...q].sort(), params.sort(), `${name}: query parameters`);
      }
    });
  }

  test('every error code of the server has its own error class, and the error body its fields', () => {
    const body = resolve(doc.components?.schemas?.Error)?.properties?.error;
    const codes = (body?.properties?.code as { enum?: string[] } | undefined)?.enum ?? [];
    assert.deepEqual([...codes].sort(), Object.keys(ERROR_CODES).sort());
    for (const [code, status] of Object.entries(ERROR_CODES)) {
      const err = makeAPIError(status, { code, message: 'm' }, new Headers());
      assert.notEqual(err.constructor, APIError, `${code} has a specific class`);
    }
    assert.deepEqual(Object.keys(body?.properties ?? {}).sort(), ['code', 'details', 'message', 'requestId', 'retryAfter']);
  });

  test('every /v1 operation of the server has an SDK method', () => {
    const covered = new Set(Object.values(endpoints).map((e: Endpoint) => `${e.method} ${norm(e.path)}`));
    // The document itself is served to anyone, for tooling: not an SDK call.
    const outside = new Set(['GET /v1/openapi.json']);
    const missing = Object.entries(doc.paths).flatMap(([p, ops]) =>
      Object.keys(ops).filter((m) => ['get', 'post', 'patch', 'put', 'delete'].includes(m)).map((m) => `${m.toUpperCase()} ${norm(p)}`))
      .filter((op) => !covered.has(op) && !outside.has(op.replace(/\{\}/g, '')) && !outside.has(op));
    assert.deepEqual(missing, []);
  });
});
