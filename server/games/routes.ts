import { api } from '../../shared/api/contract.ts';
import { Endpoints, route } from '../http/route.ts';
import type { GameAdmin } from './service.ts';

/** Staff's games: HTTP only; the rules live in GameAdmin. */
export function gameRoutes(admin: GameAdmin): Endpoints {
  const r = new Endpoints();
  route(r, api.staffGames, ({ query }) => admin.list(query));
  route(r, api.createGame, ({ body, user }) => admin.create(user, body));
  route(r, api.staffGame, ({ params }) => admin.one(params.id));
  route(r, api.staffGameStats, ({ params }) => admin.stats(params.id));
  route(r, api.updateGame, ({ params, body, user }) => admin.update(user, params.id, body));
  return r;
}
