import { api } from '../../shared/api/contract.ts';
import { Endpoints, route } from '../http/route.ts';
import { dhakaDateInputValue } from '../../shared/dates.ts';
import type { Db } from '../db/index.ts';
import { exportFile } from './export.ts';
import { searchOf, type GeneratedTickets } from './service.ts';

/** Generated tickets (staff) and their activation (players): HTTP only; the rules live in GeneratedTickets. */
export function generatedTicketRoutes(tickets: GeneratedTickets, db: Db): Endpoints {
  const r = new Endpoints();
  route(r, api.generateTickets, ({ body, user }) => tickets.generate(user, body));
  route(r, api.generatedTickets, ({ query }) => tickets.list(query));
  route(r, api.exportGeneratedTickets, ({ query }) =>
    exportFile(
      db,
      tickets.keys,
      { ...searchOf(tickets.keys, query.search), lotteryId: query.lottery_id },
      dhakaDateInputValue(new Date()) ?? 'today',
    ),
  );
  route(r, api.deleteGeneratedTicket, ({ params, user }) => tickets.remove(user, params.id));
  route(r, api.activateTicket, ({ body, user, caller: { ip, lng } }) => tickets.activate(user, body, ip, lng));
  return r;
}
