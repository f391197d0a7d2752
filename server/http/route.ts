import express, { type Request, type Response, type Router } from 'express';
import type { z } from 'zod';
import type { Endpoint } from '../../shared/api/endpoint.ts';
import { PICTURE_MAX_BYTES } from '../../shared/uploads/schemas.ts';
import type { AccessClaims } from '../accounts/tokens.ts';
import { requireCurrentStaff, requireUser } from './auth.ts';
import { ApiError, zodToFieldErrors } from './errors.ts';

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;
type In<S> = S extends z.ZodType ? z.input<S> : never;

/** What a handler returns: the answer as its schema takes it (a page of a paged list with its total); nothing for a file or a 204. */
export type HandlerResult<E extends Endpoint> = E['reply'] extends z.ZodType
  ? E['paged'] extends true
    ? { items: In<E['reply']>; total: number }
    : In<E['reply']>
  : void;

export type HandlerArgs<E extends Endpoint> = {
  req: Request;
  res: Response;
  /** The caller: always there unless the endpoint is public. */
  user: E['access'] extends 'public' ? AccessClaims | undefined : AccessClaims;
  params: Out<E['params']>;
  query: Out<E['query']>;
  body: E['raw'] extends readonly string[] ? Buffer : Out<E['body']>;
};

/** An endpoint's whole pipeline as route() registers it: access, input, handler, answer (errors are thrown). */
export type Serve = (req: Request, res: Response) => Promise<void>;

/** The endpoints a router serves, as route() registered them (read by endpointsOf). */
const SERVED = Symbol('bhagya.served');
type Served = { e: Endpoint; serve: Serve };
type ServingRouter = Router & { [SERVED]?: Served[] };

/**
 * Registers the handler of an endpoint of shared/api/contract.ts: access is checked, path parameters, query and
 * body are parsed by the endpoint's schemas before the handler runs (a bad id is a 404, bad input a 400 with field
 * errors), and the answer is parsed by its schema on the way out, which also drops any field it does not name.
 * The same pipeline serves an HTTP request and a page's call in this process (server/api.ts, directApi).
 */
export function route<E extends Endpoint>(router: Router, e: E, handler: (args: HandlerArgs<E>) => Promise<HandlerResult<E>>): void {
  const method = e.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
  const path = e.path.replace(/^\/api/, '');
  const raw = e.raw ? [express.raw({ type: [...e.raw], limit: PICTURE_MAX_BYTES })] : [];
  const serve: Serve = async (req, res) => {
    const user = e.access === 'staff' ? requireCurrentStaff(req) : e.access === 'user' ? requireUser(req) : req.user;
    const params = e.params ? parseParams(req, e.params) : undefined;
    const query = e.query ? parseWith(req, e.query, req.query) : undefined;
    const body = e.raw ? req.body : e.body ? parseWith(req, e.body, jsonObject(req)) : undefined;
    const result = await handler({ req, res, user, params, query, body } as HandlerArgs<E>);
    if (res.headersSent) return;
    const status = e.status ?? 200;
    if (!e.reply) return void res.status(status).end();
    if (e.paged) {
      const page = result as { items: unknown; total: number };
      res.set('X-Total-Count', String(page.total));
      return void res.status(status).json(e.reply.parse(page.items));
    }
    res.status(status).json(e.reply.parse(result));
  };
  router[method](path, ...raw, serve);
  const r = router as ServingRouter;
  (r[SERVED] ??= []).push({ e, serve });
}

/** Each endpoint served by the routers mounted on `api` (one level down), with its pipeline. */
export function endpointsOf(api: Router): Map<Endpoint, Serve> {
  const out = new Map<Endpoint, Serve>();
  for (const layer of api.stack) for (const s of (layer.handle as Partial<ServingRouter>)[SERVED] ?? []) out.set(s.e, s.serve);
  return out;
}

function jsonObject(req: Request): unknown {
  const body: unknown = req.body;
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body) || Buffer.isBuffer(body)) {
    throw ApiError.detail(400, req.t('validation:expectedObject'), 'parse_error');
  }
  return body;
}

function parseWith<S extends z.ZodType>(req: Request, schema: S, input: unknown): z.output<S> {
  // reportInput: the issues carry the value, so a wrong type is told apart from a missing field.
  const r = schema.safeParse(input, { reportInput: true });
  if (!r.success) throw ApiError.fields(zodToFieldErrors(r.error, req.t));
  return r.data;
}

/** Path parameters that do not fit (an id that is not a positive integer) name nothing: 404. */
function parseParams<S extends z.ZodType>(req: Request, schema: S): z.output<S> {
  const r = schema.safeParse(req.params);
  if (!r.success) throw ApiError.detail(404, req.t('api:notFound'), 'not_found');
  return r.data;
}
