// Report jobs (decisions §9): one target, profiled alone.
import { Type, type Static } from 'typebox';
import { LabelText, Nullable, Strict } from '../http/schema-helpers.ts';
import { Member, ResolvedMember, ResultDocument, WebhookTarget } from '../jobs/job-request.schemas.ts';

export const ReportJobRequest = Strict({
  target: Member,
  context: Type.Optional(Type.Literal('behavioral_profile')),
  idempotencyKey: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  label: Type.Optional(LabelText()),
  webhook: Type.Optional(WebhookTarget),
});
export type ReportJobRequest = Static<typeof ReportJobRequest>;

export const ReportPayload = Strict({
  id: Type.String(),
  jobId: Type.Optional(Type.String()),
  context: Type.Literal('behavioral_profile'),
  createdAt: Type.String(),
  label: Type.Optional(Type.String()),
  output: Strict({ template: Type.Literal('report') }),
  target: ResolvedMember,
  json: Type.Optional(Nullable(ResultDocument)),
  markdown: Type.Optional(Nullable(Type.String())),
});
export type ReportPayload = Static<typeof ReportPayload>;
