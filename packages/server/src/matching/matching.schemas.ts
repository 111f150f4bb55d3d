// The matching request and payload of interface-spec.md, defined once: the same objects validate
// requests, type the code and build the OpenAPI document. The parts every job kind shares (members,
// selectors, webhook, receipt, result document) are in jobs/job-request.schemas.ts.
import { Type, type Static } from 'typebox';
import { LabelText, Nullable, Strict } from '../http/schema-helpers.ts';
import { Member, ResolvedMember, ResultDocument, WebhookTarget } from '../jobs/job-request.schemas.ts';

/** decisions §5: a group holds 1 to 20 members; in the schema, so a huge group costs no per-item work after it. */
export const MAX_GROUP = 20;

export const MatchingJobRequest = Strict({
  group: Type.Array(Member, { minItems: 1, maxItems: MAX_GROUP }),
  target: Member,
  context: Type.Literal('behavioral_compatibility'),
  idempotencyKey: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  label: Type.Optional(LabelText()),
  webhook: Type.Optional(WebhookTarget),
});
export type MatchingJobRequest = Static<typeof MatchingJobRequest>;

export const MatchingPayload = Strict({
  id: Type.String(),
  jobId: Type.Optional(Type.String()),
  context: Type.Literal('behavioral_compatibility'),
  createdAt: Type.String(),
  label: Type.Optional(Type.String()),
  output: Strict({ template: Type.Literal('matching') }),
  target: ResolvedMember,
  group: Type.Array(ResolvedMember, { minItems: 1 }),
  json: Type.Optional(Nullable(ResultDocument)),
  markdown: Type.Optional(Nullable(Type.String())),
});
export type MatchingPayload = Static<typeof MatchingPayload>;
