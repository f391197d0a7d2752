import { Router } from 'express';
import { z } from 'zod';
import type { Db } from '../db/index.ts';
import { ApiError, zodToFieldErrors } from '../http/errors.ts';
import { idParam } from '../http/validate.ts';
import { featuredLotteries, isPurchasable, latestResults, lotteryById, MAX_PAGE, publishedLotteries, type LotteryRow } from './queries.ts';

const Paging = z.strictObject({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

export const lotteryJson = (l: LotteryRow) => ({ ...l, purchasable: isPurchasable(l) });

/** Public lottery reads (player-side spec §7). Lists are bounded; the total rides in X-Total-Count. */
export function lotteryRoutes(db: Db): Router {
  const r = Router();
  r.get('/v1/published-lotteries/', async (req, res) => {
    const p = Paging.safeParse(req.query, { reportInput: true });
    if (!p.success) throw ApiError.fields(zodToFieldErrors(p.error, req.t));
    const { rows, total } = await publishedLotteries(db, p.data.limit, p.data.offset);
    res.set('X-Total-Count', String(total)).json(rows.map(lotteryJson));
  });
  r.get('/v1/featured-lotteries/', async (_req, res) => {
    res.json((await featuredLotteries(db)).map(lotteryJson));
  });
  r.get('/v1/lottery-results/', async (_req, res) => {
    res.json(await latestResults(db));
  });
  r.get('/v1/get-lottery/:id/', async (req, res) => {
    const l = await lotteryById(db, idParam(req, 'id'));
    // Unpublished lotteries exist only for staff.
    if (!l || (!l.published && !req.user?.is_staff)) throw ApiError.detail(404, req.t('api:lotteryNotFound'), 'not_found');
    res.json(lotteryJson(l));
  });
  return r;
}
