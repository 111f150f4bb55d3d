// The parts of a result job's request, receipt and result shared by every job kind (matching and
// report jobs: decisions §5, §6 and §9), defined once: the same objects validate requests, type the
// code and build the OpenAPI document. A kind's own request and payload live in its folder.
import { Type, type Static } from 'typebox';
import { Nullable, Strict, TaggedUnion } from '../http/schema-helpers.ts';
const Id = Type.String({ minLength: 1, maxLength: 256 });

export const Timerange = Strict({
  start_seconds: Type.Optional(Nullable(Type.Number({ minimum: 0 }))),
  end_seconds: Type.Optional(Nullable(Type.Number({ minimum: 0 }))),
}, { description: 'Seconds from the start of the media.' });

export const Selector = Strict({
  strategy: Type.Union([
    Type.Literal('dominant'),
    Type.Literal('timerange'),
    Type.Literal('entity_id'),
    Type.Literal('magic_hint'),
    Type.Literal('speaker_index'),
  ]),
  on_miss: Type.Optional(Type.Union([Type.Literal('fallback_dominant'), Type.Literal('error')], { default: 'error' })),
  entity_id: Type.Optional(Nullable(Id)),
  hint: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 1024 }))),
  speaker_index: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 9007199254740991 }))),
  timerange: Type.Optional(Nullable(Timerange)),
});
export type Selector = Static<typeof Selector>;

export const EntityReference = Strict({ type: Type.Literal('entity_id'), entityId: Id });
export const MediaTarget = Strict({ type: Type.Literal('media_target'), mediaId: Id, selector: Selector });
export const Member = TaggedUnion(EntityReference, MediaTarget);
export type Member = Static<typeof Member>;

export const WebhookTarget = Strict({
  url: Type.String({ format: 'uri' }),
  headers: Type.Optional(Type.Record(Type.String(), Type.String())),
});
export type WebhookTarget = Static<typeof WebhookTarget>;

export const JobReceipt = Strict({
  jobId: Type.String(),
  status: Type.Union([Type.Literal('queued'), Type.Literal('running')]),
  stage: Type.Optional(Type.String()),
  estimatedWaitSec: Type.Optional(Type.Number({ description: 'seconds' })),
});
export type JobReceipt = Static<typeof JobReceipt>;

export const ResolvedMember = Strict({
  source: Member,
  entityId: Type.Optional(Type.String()),
  resolvedLabel: Type.Optional(Nullable(Type.String())),
});
export type ResolvedMember = Static<typeof ResolvedMember>;

const Card = Strict({ type: Type.Literal('card'), content: Type.String(), icon: Type.String(), title: Type.String() });
const TextBlock = Strict({ type: Type.Literal('text'), content: Type.String(), title: Type.Optional(Type.String()) });
const Grid = Strict({
  type: Type.Literal('grid'),
  columns: Type.Union([Type.Literal(2), Type.Literal(3), Type.Literal(4)]),
  items: Type.Array(Card),
});
const Illustration = Strict({
  type: Type.Literal('illustration'),
  variant: Type.Union([Type.Literal('conversation'), Type.Literal('growth'), Type.Literal('connection'), Type.Literal('analysis')]),
});
export const Block = Type.Unsafe<Static<typeof Card> | Static<typeof TextBlock> | Static<typeof Grid> | Static<typeof Illustration>>({
  type: 'object',
  required: ['type'],
  discriminator: { propertyName: 'type' },
  oneOf: [Card, TextBlock, Grid, Illustration],
});
export const Section = Strict({
  section_title: Type.String(),
  section_content: Type.Union([Block, Type.Array(Block), Strict({})]),
});
export const ResultDocument = Strict({
  schemaVersion: Type.Literal(1),
  title: Type.String({ minLength: 1 }),
  summary: Type.String({ minLength: 1 }),
  sections: Type.Array(Section, { minItems: 1 }),
});
export type ResultDocument = Static<typeof ResultDocument>;
