// Feedback on a matching or report result (decisions §10).
import { Type, type Static } from 'typebox';
import { ListQuery, Strict } from '../http/schema-helpers.ts';

export const FeedbackBody = Strict({
  resultId: Type.String({ minLength: 1, maxLength: 256, description: 'a matching (mat_) or report (rep_) result id' }),
  rating: Type.Integer({ minimum: 1, maximum: 5 }),
  comment: Type.Optional(Type.String({ maxLength: 2000 })),
});
export type FeedbackBody = Static<typeof FeedbackBody>;

export const Feedback = Strict({
  id: Type.String(),
  resultId: Type.String(),
  rating: Type.Integer({ minimum: 1, maximum: 5 }),
  comment: Type.Optional(Type.String()),
  createdAt: Type.String(),
});

export const FeedbackListQuery = ListQuery;
export type FeedbackListQuery = Static<typeof FeedbackListQuery>;
