import { Router, type Request } from 'express';
import { api } from '../../shared/api/contract.ts';
import { route } from '../http/route.ts';
import type { Ctx, GeneratedTickets } from './service.ts';

const ctxOf = (req: Request): Ctx => ({ t: req.t, lng: req.language === 'bn' ? 'bn' : 'en', ip: req.ip ?? 'unknown' });

/** Generated tickets (staff) and their activation (players): HTTP only; the rules live in GeneratedTickets. */
export function generatedTicketRoutes(tickets: GeneratedTickets): Router {
  const r = Router();
  route(r, api.generateTickets, ({ body, user, req }) => tickets.generate(user, body, req.t));
  route(r, api.generatedTickets, ({ query }) => tickets.list(query));
  route(r, api.deleteGeneratedTicket, ({ params, user, req }) => tickets.remove(user, params.id, req.t));
  route(r, api.activateTicket, ({ body, user, req }) => tickets.activate(user, body, ctxOf(req)));
  return r;
}
