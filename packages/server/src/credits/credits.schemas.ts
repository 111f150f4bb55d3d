// The credit balance and transaction resources of decisions §10.
import { Type, type Static } from 'typebox';
import { ListQuery, Strict } from '../http/schema-helpers.ts';

export const CreditBalance = Strict({
  balance: Type.Integer({ description: 'credits the workspace owns' }),
  reserved: Type.Integer({ minimum: 0, description: 'credits set aside for work that has not finished' }),
  available: Type.Integer({ description: 'balance - reserved: what new work can use' }),
  updatedAt: Type.String(),
});

export const CreditTransaction = Strict({
  id: Type.String(),
  kind: Type.Union([Type.Literal('grant'), Type.Literal('reserve'), Type.Literal('charge'), Type.Literal('release')]),
  amount: Type.Integer({ minimum: 0 }),
  balanceAfter: Type.Integer(),
  jobId: Type.Optional(Type.String()),
  mediaId: Type.Optional(Type.String()),
  createdAt: Type.String(),
});

export const CreditTransactionQuery = ListQuery;
export type CreditTransactionQuery = Static<typeof CreditTransactionQuery>;
