import { Router } from 'express';
import { api } from '../../shared/api/contract.ts';
import { route } from '../http/route.ts';
import type { DashboardFigures } from './service.ts';

/** The back office's dashboard (staff): HTTP only. */
export function dashboardRoutes(figures: DashboardFigures): Router {
  const r = Router();
  route(r, api.dashboard, () => figures.now());
  return r;
}
