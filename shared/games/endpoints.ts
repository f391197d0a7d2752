/** The games endpoints of the API (docs/rules/api.md#3-endpoints, docs/rules/games.md); shared/api/contract.ts is the union. */
import { z } from 'zod';
import { endpoint } from '../api/endpoint.ts';
import { IdParams } from '../lotteries/schemas.ts';
import { Game, GameBody, GameDetail, GamePatch, GameStats, GamesQuery, STATS_DAYS_MAX, STATS_DRAWN } from './schemas.ts';

export const gamesEndpoints = {
  staffGames: endpoint({
    method: 'GET',
    path: '/api/v1/games/',
    access: 'staff',
    tag: 'games',
    query: GamesQuery,
    reply: z.array(Game),
    paged: true,
    refuses: [],
    summary: 'Every game, active ones first, then newest first; paged.',
  }),
  createGame: endpoint({
    method: 'POST',
    path: '/api/v1/games/',
    access: 'staff',
    tag: 'games',
    body: GameBody,
    reply: GameDetail,
    status: 201,
    refuses: [],
    summary:
      'Creates a numbers game with its prize table, Lucky Chance prizes and calendar (Dhaka weekdays and time, sales close, ' +
      'draws on sale ahead); an active game puts its next draws on sale at once; audited.',
  }),
  staffGame: endpoint({
    method: 'GET',
    path: '/api/v1/games/:id/',
    access: 'staff',
    tag: 'games',
    params: IdParams,
    reply: GameDetail,
    refuses: ['game_not_found'],
    summary: 'One game with its draws: every one on sale or waiting for its draw, and the last 20 drawn.',
  }),
  updateGame: endpoint({
    method: 'PATCH',
    path: '/api/v1/games/:id/',
    access: 'staff',
    tag: 'games',
    params: IdParams,
    body: GamePatch,
    reply: GameDetail,
    refuses: ['game_not_found', 'lucky_both'],
    summary:
      'Changes any of the fields, `active` among them (false: paused, no new draw goes on sale); a change applies to the draws ' +
      'put on sale after it, never to the draws already on sale; audited.',
  }),
  staffGameStats: endpoint({
    method: 'GET',
    path: '/api/v1/games/:id/stats/',
    access: 'staff',
    tag: 'games',
    params: IdParams,
    reply: GameStats,
    refuses: ['game_not_found'],
    summary:
      `The figures of a game's charts (docs/rules/games.md#7-charts): each draw not drawn yet and the last ${STATS_DRAWN} drawn, ` +
      `with its paid tickets per Dhaka day and its jackpot at the end of each (the last ${STATS_DAYS_MAX} days at most), and ` +
      "what a drawn draw's prizes owe its winners: paid out, claimed, unclaimed and withheld, in whole taka.",
  }),
} as const;
