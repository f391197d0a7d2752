import { api } from '../../shared/api/contract.ts';
import { Endpoints, route } from '../http/route.ts';
import type { Results } from './service.ts';

/**
 * The results archive and "check my numbers", public reads (docs/rules/lotteries-and-sales.md#10-results-for-players):
 * like every public read they are not rate limited (docs/rules/limits.md#1-rate-limits); each is a few bounded statements.
 */
export function resultsRoutes(results: Results): Endpoints {
  const r = new Endpoints();
  route(r, api.resultsArchive, ({ query }) =>
    results.archive(
      { search: query.search, date: query.date ? { from: query.date.from, to: query.date.to } : null },
      query.limit,
      query.offset,
    ),
  );
  route(r, api.checkNumbers, ({ query }) => results.check(query.ticket));
  route(r, api.numberFrequency, ({ query }) => results.frequency(query.game));
  return r;
}
