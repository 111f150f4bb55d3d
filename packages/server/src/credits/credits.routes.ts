// HTTP routes of credits (decisions §10): thin handlers over CreditsService.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../compose/services.ts';
import { requireAuth } from '../workspace/auth.ts';
import { ListOf } from '../http/schema-helpers.ts';
import { CreditBalance, CreditTransaction, CreditTransactionQuery } from './credits.schemas.ts';

export function registerCreditRoutes(app: FastifyInstance, services: Services): void {
  app.get('/v1/credits', {
    config: { rateClass: 'credits', doc: { summary: 'The credit balance of the workspace', tags: ['credits'], responses: { 200: { description: 'Balance, reserved and available credits', schema: CreditBalance } } } },
  }, async (req) => services.credits.balance(requireAuth(req.auth)));

  app.get('/v1/credits/transactions', {
    schema: { querystring: CreditTransactionQuery },
    config: { rateClass: 'credits', doc: { summary: 'Credit transactions, newest first', tags: ['credits'], responses: { 200: { description: 'A page of transactions', schema: ListOf(CreditTransaction) } } } },
  }, async (req) => services.credits.transactions(requireAuth(req.auth), req.query as CreditTransactionQuery));
}
