// Drift test: the SDK's route table (src/endpoints.ts) and field lists (src/fields.ts and
// src/nested-fields.ts, which the compiler checks against the src/*-types.ts files) must agree
// with the OpenAPI document the real server serves. A route, status, field, nullability, query
// parameter or field type (string, number, boolean, null, literals, arrays' items, as the
// compiler reads src/*-types.ts: test/sdk-types.ts) that changes on either side fails here, in
// every response and request body and in every object they hold, down to the last (each
// alternative of a union too: a member's source, a section's blocks, a media's warnings); so
// does an enumerated field's list of values (constants included), and the media type of a body
// the SDK reads as text (the HTML files, the metrics' CSV).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startService } from '@rapport/server';
import { endpoints } from '../src/endpoints.ts';
import type { Endpoint } from '../src/endpoints.ts';
import { queryFields, requestFields, responseFields } from '../src/fields.ts';
import { enumFields, nestedFields, nestedShapeFields } from '../src/nested-fields.ts';
import { APIError, ERROR_CODES, makeAPIError } from '../src/core/errors.ts';
import type { Shape } from '../src/fields.ts';
import { schemaType, sdkFieldTypes } from './sdk-types.ts';
import type { TypeDescription } from './sdk-types.ts';

type Schema = Record<string, unknown> & {
  $ref?: string; type?: string | string[]; anyOf?: Schema[]; oneOf?: Schema[]; required?: string[];
  properties?: Record<string, Schema>; items?: Schema; nullable?: boolean; enum?: (string | number)[]; const?: string | number;
};
interface Operation {
  parameters?: { name: string; in: string }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}
interface OpenApiDoc { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, Schema> } }

let doc: OpenApiDoc;
let service: Awaited<ReturnType<typeof startService>>;
/** Each SDK type's fields with their primitive types, as the compiler reads src/*-types.ts. */
const sdkTypes = sdkFieldTypes();

before(async () => {
  service = await startService();
  const res = await fetch(`${service.url}/v1/openapi.json`);
  assert.equal(res.status, 200);
  doc = (await res.json()) as OpenApiDoc;
});
after(() => service.close());

const norm = (p: string): string => p.replace(/\{[^}]+\}/g, '{}');

/** Documented query parameters that are no SDK argument: a content link's token is in the link's URL. */
const NOT_SDK_QUERY: Partial<Record<string, readonly string[]>> = { 'files.content': ['token'] };

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

/** The objects a field holds: its value, its list's items, each alternative of a union; null and `{}` aside. */
function objectsIn(s: Schema | undefined): Schema[] {
  const r = resolve(s);
  if (!r) return [];
  if (r.type === 'array') return objectsIn(r.items);
  if (r.properties && Object.keys(r.properties).length > 0) return [r];
  return [...(r.anyOf ?? []), ...(r.oneOf ?? [])].flatMap(objectsIn);
}

/** The values a field may take when the document lists them: `enum`, a constant, or a union of those (null aside). */
function enumOf(s: Schema | undefined): (string | number)[] | undefined {
  const r = resolve(s);
  if (!r) return undefined;
  if (r.enum) return r.enum;
  if (r.const !== undefined) return [r.const];
  const alts = [...(r.anyOf ?? []), ...(r.oneOf ?? [])].map(resolve).filter((x) => x && x.type !== 'null');
  const lists = alts.map(enumOf);
  return alts.length > 0 && lists.every((l) => l !== undefined) ? lists.flat() : undefined;
}

const sortedValues = (l: readonly (string | number)[] | undefined): (string | number)[] => [...(l ?? [])].sort((x, y) => String(x).localeCompare(String(y)));

/** What the comparison reached: a change that stops reaching a table's entry would make the test vacuous there. */
const reached = new Set<string>();
const enumsChecked = new Set<string>();

/**
 * The shape an alternative of a union is: of the shapes named, the one whose constants (its
 * `type`, its `code`) are the alternative's, as enumFields lists them.
 */
function shapeOf(alt: Schema, names: readonly string[], where: string): string {
  if (names.length === 1 && names[0] !== undefined) return names[0];
  const constants = Object.entries(alt.properties ?? {}).flatMap(([f, p]) => {
    const c = resolve(p)?.const;
    return c === undefined ? [] : [[f, c] as const];
  });
  const fits = names.filter((n) => constants.length > 0 && constants.every(([f, c]) => {
    const listed = enumFields[`${n}.${f}`];
    return listed?.length === 1 && listed[0] === c;
  }));
  const [name] = fits;
  assert.ok(fits.length === 1 && name !== undefined, `${where}: the document's alternative with ${JSON.stringify(constants)} is ${fits.length} of ${names.join(', ')}, not one`);
  return name;
}

/**
 * The shapes a shape holds, as nestedFields names them, against the document's, down the tree:
 * each object a field of the document holds (each alternative of a union) must be one of the
 * shapes named there, every shape named must be one the document has, and each enumerated
 * field's values must be enumFields'.
 */
function compareNested(where: string, schema: Schema, typeName: string): void {
  const named = nestedFields[typeName] ?? {};
  for (const [field, s] of Object.entries(schema.properties ?? {})) {
    const here = `${where}.${field}`;
    const values = enumOf(s);
    const listed = enumFields[`${typeName}.${field}`];
    if (values || listed) {
      assert.deepEqual(sortedValues(listed), sortedValues(values), `${here}: enumFields['${typeName}.${field}'] and the document's values`);
      enumsChecked.add(`${typeName}.${field}`);
    }
    const alternatives = objectsIn(s);
    const names = named[field];
    if (alternatives.length === 0) {
      assert.equal(names, undefined, `${here}: nested-fields.ts names ${names?.join(', ')} here, the document has no object`);
      continue;
    }
    assert.ok(names, `${here}: the document has an object here; nested-fields.ts nestedFields.${typeName} does not name its shape`);
    const seen = new Set<string>();
    for (const alt of alternatives) {
      const name = shapeOf(alt, names, here);
      const shape = nestedShapeFields[name];
      assert.ok(shape, `nested-fields.ts has no shape ${name}`);
      compare(`${here} (${name})`, alt, shape, name);
      seen.add(name);
      compareNested(here, alt, name);
    }
    assert.deepEqual([...seen].sort(), [...names].sort(), `${here}: the shapes nested-fields.ts names and the document's`);
    reached.add(`${typeName}.${field}`);
  }
  for (const field of Object.keys(named)) assert.ok(schema.properties?.[field], `${where}: nested-fields.ts follows ${field}, the document has no such field`);
}

function operation(e: Endpoint): Operation | undefined {
  const path = Object.keys(doc.paths).find((p) => norm(p) === norm(e.path));
  return path ? doc.paths[path]?.[e.method.toLowerCase()] : undefined;
}

function compare(where: string, schema: Schema | undefined, shape: Shape, typeName: string, sdkDefaults: readonly string[] = []): void {
  assert.ok(schema?.properties, `${where}: the OpenAPI document gives no object schema`);
  const sorted = (a: Iterable<string>): string[] => [...a].sort();
  const wireRequired = sorted((schema.required ?? []).filter((f) => !sdkDefaults.includes(f)));
  assert.deepEqual(sorted(shape.required), wireRequired, `${where}: required fields`);
  assert.deepEqual(sorted([...shape.required, ...shape.optional]), sorted(Object.keys(schema.properties)), `${where}: field names`);
  const nullable = Object.entries(schema.properties).filter(([, s]) => allowsNull(s)).map(([k]) => k);
  assert.deepEqual(sorted(shape.nullable), sorted(nullable), `${where}: nullable fields`);
  compareTypes(where, schema, typeName);
}

/** An integer the document bounds to a few values (a rating, 1 to 5) as those literals, which the SDK may spell out; else undefined. */
function boundedIntegers(s: Schema | undefined): string[] | undefined {
  const r = resolve(s);
  const { minimum: min, maximum: max } = (r ?? {}) as { minimum?: unknown; maximum?: unknown };
  if (r?.type !== 'integer' || typeof min !== 'number' || typeof max !== 'number' || max - min > 20) return undefined;
  return Array.from({ length: max - min + 1 }, (_, i) => String(min + i)).sort();
}

/**
 * Each field's primitive type, the SDK's (read from src/*-types.ts) against the document's: a
 * `number` the SDK calls `string`, a list of strings it calls a list of numbers, an enumeration
 * with other members, fail here. TypeScript has one `number`, so the document's `integer` is one.
 * A field typed open (`JobStage | string`, so that a later value is no type error) stands for the
 * values enumFields lists for it, which are compared with the document's in compareNested; an
 * integer bounded to a few values may be typed as exactly those (`rating: 1 | 2 | 3 | 4 | 5`).
 */
function compareTypes(where: string, schema: Schema, typeName: string): void {
  const sdk = sdkTypes(typeName);
  assert.ok(sdk, `${where}: the SDK exports no type ${typeName}`);
  const fields = Object.keys(schema.properties ?? {}).sort();
  const mine = Object.fromEntries(fields.map((f): [string, TypeDescription] => {
    const own = sdk[f] ?? [];
    const listed = enumFields[`${typeName}.${f}`];
    const open = own.includes('string') && listed?.every((v) => typeof v === 'string');
    if (open) return [f, [...own.filter((t) => t !== 'string'), ...listed.map((v) => JSON.stringify(v))].sort()];
    const range = boundedIntegers(schema.properties?.[f]);
    return [f, range && own.join() === range.join() ? ['number'] : own];
  }));
  const wire = Object.fromEntries(fields.map((f) => [f, schemaType(schema.properties?.[f], resolve)]));
  assert.deepEqual(mine, wire, `${where}: field types (the SDK's ${typeName} and the document's)`);
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
        compare(`${name} response (${typeName})`, schema, shape, typeName);
        if (schema) compareNested(`${name} response`, schema, typeName);
      }
      if (e.text) {
        const textBody = response.content?.[e.text]?.schema;
        assert.equal(resolve(textBody)?.type, 'string', `${name}: the document gives no ${e.text} string body (it has ${Object.keys(response.content ?? {}).join(', ') || 'no content'})`);
      }
      const body = requestFields[name];
      if (body) {
        const schema = objectOf(op.requestBody?.content?.['application/json']?.schema);
        compare(`${name} request body`, schema, body, body.type, body.sdkDefaults);
        if (schema) compareNested(`${name} request body`, schema, body.type);
      }
      // Every route's, not only those queryFields lists: a documented parameter the SDK has no
      // way to send (metrics' ?format=csv once) fails here too.
      const params = (op.parameters ?? []).filter((p) => p.in === 'query' && !NOT_SDK_QUERY[name]?.includes(p.name)).map((p) => p.name);
      assert.deepEqual([...(queryFields[name] ?? [])].sort(), params.sort(), `${name}: query parameters (fields.ts queryFields)`);
    });
  }

  test('every nested shape and enumeration of nested-fields.ts was compared with the document', () => {
    const followed = Object.entries(nestedFields).flatMap(([type, fields]) => Object.keys(fields).map((f) => `${type}.${f}`));
    assert.deepEqual([...reached].sort(), followed.sort(), 'nestedFields entries the comparison never reached');
    const named = new Set(Object.values(nestedFields).flatMap((fields) => Object.values(fields).flat()));
    assert.deepEqual(Object.keys(nestedShapeFields).filter((n) => !named.has(n)), [], 'nestedShapeFields entries no field holds');
    assert.deepEqual(Object.keys(enumFields).filter((k) => !enumsChecked.has(k)).sort(), [], 'enumFields entries the comparison never reached');
    // The shapes the evidence holds, which this test followed first, are still among them.
    for (const path of ['Evidence.target', 'EvidenceMember.metrics', 'EvidenceComponent.cells', 'SpeakerMeasures.language']) assert.ok(reached.has(path), path);
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
