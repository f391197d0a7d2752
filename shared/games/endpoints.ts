/** The games endpoints of the API (docs/rules/api.md#3-endpoints, docs/rules/games.md); shared/api/contract.ts is the union. */
import { z } from 'zod';
import { endpoint } from '../api/endpoint.ts';
import { IdParams } from '../lotteries/schemas.ts';
import { Game, GameBody, GameDetail, GamePatch, GamesQuery } from './schemas.ts';

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
} as const;
