import { Router, type Request } from 'express';
import { api } from '../../shared/api/contract.ts';
import { route } from '../http/route.ts';
import { dhakaDateInputValue } from '../../shared/dates.ts';
import type { Db } from '../db/index.ts';
import { streamExport } from './export.ts';
import { searchOf, type Ctx, type GeneratedTickets } from './service.ts';

const ctxOf = (req: Request): Ctx => ({ t: req.t, lng: req.language === 'bn' ? 'bn' : 'en', ip: req.ip ?? 'unknown' });

/** Generated tickets (staff) and their activation (players): HTTP only; the rules live in GeneratedTickets. */
export function generatedTicketRoutes(tickets: GeneratedTickets, db: Db): Router {
  const r = Router();
  route(r, api.generateTickets, ({ body, user, req }) => tickets.generate(user, body, req.t));
  route(r, api.generatedTickets, ({ query }) => tickets.list(query));
  route(r, api.exportGeneratedTickets, ({ query, req, res }) =>
    streamExport(db, { ...searchOf(query.search), lotteryId: query.lottery_id }, res, req.t, dhakaDateInputValue(new Date()) ?? 'today'),
  );
  route(r, api.deleteGeneratedTicket, ({ params, user, req }) => tickets.remove(user, params.id, req.t));
  route(r, api.activateTicket, ({ body, user, req }) => tickets.activate(user, body, ctxOf(req)));
  return r;
}
