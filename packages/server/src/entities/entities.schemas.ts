// Entities of decisions §7 (people tracked across media by voice): the resource and the bodies
// of its edits, defined once for validation, types and the OpenAPI document.
import { Type, type Static } from 'typebox';
import { ListQuery, LabelText, Nullable, Strict } from '../http/schema-helpers.ts';

const Id = Type.String({ minLength: 1, maxLength: 256 });
const Label = LabelText();
const Tag = LabelText();

/** At most this many tags on one entity, so that a client loop cannot grow a row without bound. */
export const MAX_TAGS_PER_ENTITY = 100;

export const Entity = Strict({
  id: Type.String(),
  label: Nullable(Type.String()),
  name: Type.String({ description: 'what people read (decisions §16, §17): the label, else named after the first appearance ("Speaker 2 in interview.wav"), never by an id' }),
  tags: Type.Array(Type.String()),
  speechSec: Type.Number({ minimum: 0, description: 'seconds, over every appearance' }),
  enough: Type.Boolean({ description: 'whether the entity has enough speech to be judged (decisions §16): false below MIN_SPEECH_SEC_TO_JUDGE seconds over its appearances' }),
  appearances: Type.Array(Strict({
    mediaId: Type.String(),
    speakerIndex: Type.Integer({ minimum: 0 }),
    speechSec: Type.Number({ minimum: 0, description: 'seconds' }),
  })),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
export type Entity = Static<typeof Entity>;

export const EntityListQuery = Strict({
  ...ListQuery.properties,
  tag: Type.Optional(Tag),
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'case-insensitive substring of the label' })),
  include: Type.Optional(Type.Literal('empty', { description: 'empty: also list entities with no appearance left (not listed by default, decisions §16)' })),
});
export type EntityListQuery = Static<typeof EntityListQuery>;

export const EntityPatch = Strict({ label: Nullable(Label) });
export type EntityPatch = Static<typeof EntityPatch>;

export const EntityTagsBody = Strict({ tags: Type.Array(Tag, { minItems: 1, maxItems: 20 }) });
export type EntityTagsBody = Static<typeof EntityTagsBody>;

export const EntityTagParams = Strict({ id: Id, tag: Tag });
export type EntityTagParams = Static<typeof EntityTagParams>;

export const EntityMergeBody = Strict({ into: Id, from: Type.Array(Id, { minItems: 1, maxItems: 100 }) });
export type EntityMergeBody = Static<typeof EntityMergeBody>;
