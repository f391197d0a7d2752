import { api } from '../../shared/api/contract.ts';
import { Endpoints, route } from '../http/route.ts';
import type { Play } from './service.ts';

/** Spend limits, self-exclusion and the reality check (docs/rules/play-safe.md): HTTP only; the rules live in Play and shared/play-safe/limits.ts. */
export function playRoutes(play: Play): Endpoints {
  const r = new Endpoints();
  route(r, api.myLimits, ({ user }) => play.of(user.user_id));
  route(r, api.setMyLimits, ({ body, user }) => play.setLimits(user.user_id, body));
  route(r, api.selfExclusion, ({ body, user }) => play.exclude(user.user_id, body));
  route(r, api.timeOut, ({ body, user }) => play.takeTimeOut(user.user_id, body));
  route(r, api.userPlayLimits, ({ params }) => play.forStaff(params.id));
  route(r, api.realityCheck, ({ user }) => play.reality(user));
  route(r, api.topBar, ({ user }) => play.topBar(user));
  route(r, api.acknowledgeRealityCheck, ({ user }) => play.acknowledgeReality(user));
  route(r, api.setRealityCheck, ({ body, user }) => play.setRealityInterval(user, body));
  return r;
}
