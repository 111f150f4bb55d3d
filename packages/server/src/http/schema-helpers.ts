// Small builders on top of TypeBox for the shapes this API repeats: strict objects (unknown
// fields refused, as the contract demands), tagged unions told apart by `type` (Ajv's
// discriminator keeps errors pointed at the branch the client meant), nullable fields, and the
// list envelope of decisions §1.
import { Type, type TSchema, type TProperties, type Static } from 'typebox';
import { NO_CONTROLS_PATTERN } from '../control-chars.ts';

export const Strict = <P extends TProperties>(properties: P, options: Record<string, unknown> = {}) =>
  Type.Object(properties, { additionalProperties: false, ...options });

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** A union of object schemas told apart by the constant value of their `type` property. */
export function TaggedUnion<A extends TSchema, B extends TSchema>(a: A, b: B, options: Record<string, unknown> = {}) {
  return Type.Unsafe<Static<A> | Static<B>>({
    type: 'object',
    required: ['type'],
    discriminator: { propertyName: 'type' },
    oneOf: [a, b],
    ...options,
  });
}

/**
 * One of a few strings, as one JSON Schema `enum`: a value outside it is one error naming every
 * allowed value (a union of literals would give one error per literal).
 */
export function OneOf<const V extends readonly string[]>(values: V, options: Record<string, unknown> = {}) {
  return Type.Unsafe<V[number]>({ type: 'string', enum: [...values], ...options });
}

export const ListOf = <T extends TSchema>(item: T) =>
  Strict({ data: Type.Array(item), nextCursor: Nullable(Type.String()) });

export const ListQuery = Strict({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
});

export const IdParams = Strict({ id: Type.String({ minLength: 1, maxLength: 256 }) });
export type IdParams = Static<typeof IdParams>;

/**
 * A label or name a client writes: 1 to 64 characters, none of them a control character (a
 * terminal printing it would obey it: issue 41, finding 9).
 */
export const LabelText = (options: Record<string, unknown> = {}) =>
  Type.String({ minLength: 1, maxLength: 64, pattern: NO_CONTROLS_PATTERN, ...options });
