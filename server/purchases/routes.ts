import { Router, type Request } from 'express';
import { api } from '../../shared/api/contract.ts';
import { IdempotencyKey } from '../../shared/purchases/schemas.ts';
import { ApiError } from '../http/errors.ts';
import { route } from '../http/route.ts';
import type { Ctx, Purchases } from './service.ts';

const ctxOf = (req: Request): Ctx => ({ t: req.t, lng: req.language === 'bn' ? 'bn' : 'en' });

/** The `Idempotency-Key` header, when sent: 1–100 printable characters (docs/rules/lotteries-and-sales.md#7-buying-a-ticket). */
function idempotencyKey(req: Request): string | null {
  const raw = req.headers['idempotency-key'];
  if (raw === undefined) return null;
  const r = IdempotencyKey.safeParse(raw);
  if (!r.success) throw ApiError.detail(400, req.t('api:idempotencyKeyInvalid'), 'bad_request');
  return r.data;
}

/** Purchases, the player's transactions and the staff's: HTTP only; the rules live in Purchases. */
export function purchaseRoutes(purchases: Purchases): Router {
  const r = Router();
  route(r, api.createTransaction, async ({ body, user, req, res }) => {
    const { created, reply } = await purchases.create(user, body, idempotencyKey(req), ctxOf(req));
    if (!created) {
      // A retry of a purchase already made: the first transaction, as it is now, with 200 instead of 201.
      res.set('Idempotent-Replayed', 'true').status(200).json(api.createTransaction.reply.parse(reply));
    }
    return reply;
  });
  route(r, api.setTrxId, ({ params, body, user, req }) => purchases.setTrxId(user, params.id, body, ctxOf(req)));
  route(r, api.myTransactions, ({ query, user }) => purchases.mine(user, query.limit, query.offset));
  route(r, api.myTransaction, ({ params, user, req }) => purchases.one(user, params.id, req.t));
  route(r, api.transactions, ({ query }) => purchases.list(query));
  route(r, api.updateTransaction, ({ params, body, user, req }) => purchases.setStatus(user, params.id, body, ctxOf(req)));
  return r;
}
