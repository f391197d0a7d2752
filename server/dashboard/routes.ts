import { api } from '../../shared/api/contract.ts';
import { Endpoints, route } from '../http/route.ts';
import type { DashboardFigures } from './service.ts';

/** The back office's dashboard (staff): HTTP only. */
export function dashboardRoutes(figures: DashboardFigures): Endpoints {
  const r = new Endpoints();
  route(r, api.dashboard, () => figures.now());
  return r;
}
