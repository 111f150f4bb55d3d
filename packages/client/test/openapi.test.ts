// Drift test: the SDK's route table (src/endpoints.ts) and field lists (src/fields.ts, which the
// compiler checks against the src/*-types.ts files) must agree with the OpenAPI
// document the real server serves. A route, status, field, nullability or query parameter that
// changes on either side fails here; so does, where fields.ts follows a shape into the ones it
// holds (the evidence), a nested shape or an enumeration, and the media type of a body the SDK
// reads as text (the HTML files).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startService } from '@rapport/server';
import { endpoints } from '../src/endpoints.ts';
import type { Endpoint } from '../src/endpoints.ts';
import { enumFields, nestedFields, queryFields, requestFields, responseFields } from '../src/fields.ts';
import { APIError, ERROR_CODES, makeAPIError } from '../src/core/errors.ts';
import type { Shape } from '../src/fields.ts';

type Schema = Record<string, unknown> & {
  $ref?: string; type?: string | string[]; anyOf?: Schema[]; oneOf?: Schema[]; required?: string[];
  properties?: Record<string, Schema>; items?: Schema; nullable?: boolean; enum?: string[];
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

/** The object schema a field holds: its value's, its list's items', or its value's when not null. */
function objectIn(s: Schema | undefined): Schema | undefined {
  const r = objectOf(s);
  return r?.type === 'array' ? objectOf(r.items) : r;
}

/** The values a field may take when the document enumerates them (with or without null). */
function enumOf(s: Schema | undefined): string[] | undefined {
  const r = resolve(s);
  return r?.enum ?? [...(r?.anyOf ?? []), ...(r?.oneOf ?? [])].map(resolve).find((x) => x?.enum)?.enum;
}

/** The shapes fields.ts follows were reached (a change that stops reaching them would make the test vacuous). */
const reached = new Set<string>();

/**
 * The shapes a shape holds, as nestedFields names them, against the document's, down the tree:
 * each object-valued field of the document must be named there, and each enumerated field's
 * values must be enumFields'.
 */
function compareNested(where: string, schema: Schema, typeName: string): void {
  const named = nestedFields[typeName] ?? {};
  for (const [field, s] of Object.entries(schema.properties ?? {})) {
    const here = `${where}.${field}`;
    const values = enumOf(s);
    const listed = enumFields[`${typeName}.${field}`];
    if (values || listed) assert.deepEqual([...(listed ?? [])].sort(), [...(values ?? [])].sort(), `${here}: enumFields['${typeName}.${field}'] and the document's enum`);
    const inner = objectIn(s);
    const nestedName = named[field];
    if (!inner?.properties) {
      assert.equal(nestedName, undefined, `${here}: fields.ts names ${nestedName} here, the document has no object`);
      continue;
    }
    assert.ok(nestedName, `${here}: the document has an object here; fields.ts nestedFields.${typeName} does not name its shape`);
    const shape = responseFields[nestedName];
    assert.ok(shape, `fields.ts has no shape ${nestedName}`);
    compare(`${here} (${nestedName})`, inner, shape);
    reached.add(`${typeName}.${field}`);
    compareNested(here, inner, nestedName);
  }
  for (const field of Object.keys(named)) assert.ok(schema.properties?.[field], `${where}: fields.ts follows ${field}, the document has no such field`);
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
        if (nestedFields[typeName] && schema) compareNested(`${name} response`, schema, typeName);
      }
      if (e.text) {
        const textBody = response.content?.[e.text]?.schema;
        assert.equal(resolve(textBody)?.type, 'string', `${name}: the document gives no ${e.text} string body (it has ${Object.keys(response.content ?? {}).join(', ') || 'no content'})`);
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

  test('the evidence is followed into every shape it holds', () => {
    assert.deepEqual([...reached].sort(), [
      'Evidence.dimensions', 'Evidence.group', 'Evidence.pairs', 'Evidence.scale', 'Evidence.target', 'EvidenceComponent.cells', 'EvidenceComponent.figures',
      'EvidenceMember.appearances', 'EvidenceMember.metrics', 'EvidencePair.components', 'EvidencePair.overall', 'SpeakerMeasures.language',
    ]);
  });

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
