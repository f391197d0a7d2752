import { api } from '../../shared/api/contract.ts';
import { Endpoints, route } from '../http/route.ts';
import type { Statements } from './statement-service.ts';

/** The bKash statement (docs/rules/payments.md#8-send-money-reconciled-with-the-statement): HTTP only; the rules live in Statements. */
export function statementRoutes(statements: Statements): Endpoints {
  const r = new Endpoints();
  route(r, api.uploadStatement, async ({ body, query, user, answer }) => {
    const { created, reply } = await statements.upload(user, body, query.name);
    // The same file again is its earlier upload: nothing was made (200, not 201).
    if (!created) answer.status = 200;
    return reply;
  });
  route(r, api.statements, ({ query }) => statements.list(query.limit, query.offset));
  route(r, api.statement, ({ params, query }) => statements.one(params.id, query));
  route(r, api.confirmStatement, ({ params, user }) => statements.confirm(user, params.id));
  route(r, api.discardStatement, ({ params, body, user }) => statements.discard(user, params.id, body));
  route(r, api.resolveStatementRow, ({ params, body, user }) => statements.resolve(user, params.id, body));
  route(r, api.flaggedPurchases, ({ query }) => statements.flagged(query.limit, query.offset));
  return r;
}
