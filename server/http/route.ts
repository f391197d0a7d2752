import express, { type Request, type Response, type Router } from 'express';
import type { TFunction } from 'i18next';
import type { z } from 'zod';
import type { Endpoint } from '../../shared/api/endpoint.ts';
import type { Language } from '../../shared/i18n.ts';
import { isLanguage } from '../i18n.ts';
import { PICTURE_MAX_BYTES } from '../../shared/uploads/schemas.ts';
import type { AccessClaims } from '../accounts/tokens.ts';
import { Refusal } from '../../shared/api/refusal.ts';
import { ApiError, zodToFieldErrors } from './errors.ts';
import { refusalAnswer } from './refusals.ts';
import { countAnswer, setRoute } from './metrics.ts';

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;
type In<S> = S extends z.ZodType ? z.input<S> : never;

/**
 * Who calls an endpoint, whatever the way in (docs/decisions/027-one-in-process-path.md): an HTTP request to /api or
 * /bff, or a page's call in this process. The user is the one the bearer check or the page's session found, with his
 * rights as the database has them now (server/http/auth.ts).
 */
export type Caller = {
  user: AccessClaims | undefined;
  /** The caller's texts and language. */
  t: TFunction;
  lng: Language;
  /** The visitor's address ('unknown' when there is none). */
  ip: string;
  /** The `Idempotency-Key` header as sent (an endpoint that takes one checks it). */
  idempotencyKey: string | undefined;
  /** The `X-Device-Id` header as sent (docs/decisions/025-limits-for-shared-addresses.md). */
  deviceId: string | undefined;
  /** The origin the visitor reached the site at (scheme and Host), where bKash sends him back unless PUBLIC_ORIGIN says. */
  origin: string;
};

/** What a handler may say of its answer besides the body: another success status, headers. */
export type Answer = { status?: number; headers: Record<string, string> };

/** An answer that is a file (a picture, a CSV), for an endpoint without a JSON answer. */
export type FileAnswer = { file: { headers: Record<string, string>; body: Buffer | AsyncIterable<string> } };

/** What a handler returns: the answer as its schema takes it (a page of a paged list with its total); nothing for a 204; a file. */
export type HandlerResult<E extends Endpoint> = E['reply'] extends z.ZodType
  ? E['paged'] extends true
    ? { items: In<E['reply']>; total: number }
    : In<E['reply']>
  : void | FileAnswer;

export type HandlerArgs<E extends Endpoint> = {
  caller: Caller;
  /** The caller: always there unless the endpoint is public. */
  user: E['access'] extends 'public' ? AccessClaims | undefined : AccessClaims;
  params: Out<E['params']>;
  query: Out<E['query']>;
  body: E['raw'] extends readonly string[] ? Buffer | undefined : Out<E['body']>;
  answer: Answer;
};

export type Handler<E extends Endpoint> = (args: HandlerArgs<E>) => Promise<HandlerResult<E>>;

/** An endpoint of the contract with its handler, as route() registered it. */
export type Served = { e: Endpoint; handler: (args: HandlerArgs<Endpoint>) => Promise<unknown> };

/** The endpoints a feature serves (its routes.ts registers them with route()). */
export class Endpoints {
  readonly served: Served[] = [];
  /** All of these and those. */
  static of(...all: Endpoints[]): Map<Endpoint, Served> {
    const out = new Map<Endpoint, Served>();
    for (const one of all) for (const s of one.served) out.set(s.e, s);
    return out;
  }
}

/** Registers the handler of an endpoint of shared/api/contract.ts: a plain function of its caller and its input. */
export function route<E extends Endpoint>(r: Endpoints, e: E, handler: Handler<E>): void {
  r.served.push({ e, handler: handler as unknown as Served['handler'] });
}

/** An endpoint's input as a transport has it: path parameters as text, the query, the body (JSON, or raw bytes). */
export type RawInput = { params: Record<string, string>; query: Record<string, unknown>; body: unknown };

/** An endpoint's answer, before a transport sends it: the JSON as its schema made it, or a file, or nothing. */
export type Outcome = { status: number; headers: Record<string, string>; json?: unknown; total?: number; file?: FileAnswer['file'] };

/**
 * An endpoint's whole pipeline, the same for every transport: access is checked, path parameters, query and body are
 * parsed by the endpoint's schemas before the handler runs (a bad id is a 404, bad input a 400 with field errors), and
 * the answer is parsed by its schema on the way out, which also drops any field it does not name. Errors are thrown
 * (ApiError; server/http/errors.ts errorAnswer makes them an answer); a handler's refusal (shared/api/refusal.ts)
 * becomes the ApiError of its catalogue entry in the caller's language, if the endpoint declares it.
 */
export async function run(s: Served, caller: Caller, input: RawInput): Promise<Outcome> {
  const { e } = s;
  const user = e.access === 'staff' ? requireStaff(caller) : e.access === 'user' ? requireUser(caller) : caller.user;
  const params = e.params ? parseParams(caller.t, e.params, input.params) : undefined;
  const query = e.query ? parseWith(caller.t, e.query, input.query) : undefined;
  const body = e.raw
    ? Buffer.isBuffer(input.body)
      ? input.body
      : undefined
    : e.body
      ? parseWith(caller.t, e.body, jsonObject(caller.t, input.body))
      : undefined;
  const answer: Answer = { headers: {} };
  let result: unknown;
  try {
    result = await s.handler({ caller, user, params, query, body, answer } as HandlerArgs<Endpoint>);
  } catch (err) {
    throw err instanceof Refusal ? refusalAnswer(err, e, caller.t, caller.lng) : err;
  }
  const status = answer.status ?? e.status ?? 200;
  if (!e.reply) {
    const file = (result as FileAnswer | undefined)?.file;
    return file ? { status, headers: answer.headers, file } : { status, headers: answer.headers };
  }
  if (e.paged) {
    const page = result as { items: unknown; total: number };
    return { status, headers: answer.headers, json: e.reply.parse(page.items), total: page.total };
  }
  return { status, headers: answer.headers, json: e.reply.parse(result) };
}

export function requireUser(c: Caller): AccessClaims {
  if (!c.user) throw ApiError.detail(401, c.t('api:notAuthenticated'), 'not_authenticated');
  return c.user;
}

/** Staff only, as the database says now (the bearer check read it for this call), not as the token said. */
export function requireStaff(c: Caller): AccessClaims {
  const u = requireUser(c);
  if (!u.is_staff) throw ApiError.detail(403, c.t('api:permissionDenied'), 'permission_denied');
  return u;
}

/** The caller of an HTTP request: the user the bearer check (or the BFF's session) put on it, its language and address. */
export function callerOf(req: Request): Caller {
  const lng = req.language;
  return {
    user: req.user,
    t: req.t,
    lng: isLanguage(lng) ? lng : 'en',
    ip: req.ip ?? 'unknown',
    idempotencyKey: req.get('idempotency-key'),
    deviceId: req.get('x-device-id'),
    origin: `${req.protocol}://${req.get('host') ?? 'localhost'}`,
  };
}

/**
 * Express as a thin adapter: each endpoint at its path below the router's mount point, its input taken from the
 * request, its outcome sent (errors go to the router's error handler).
 */
export function httpRouter(served: Iterable<Served>): Router {
  const router = express.Router();
  for (const s of served) {
    const method = s.e.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    const raw = s.e.raw ? [express.raw({ type: [...s.e.raw], limit: PICTURE_MAX_BYTES })] : [];
    router[method](s.e.path.replace(/^\/api/, ''), ...raw, async (req: Request, res: Response) => {
      setRoute(res, s.e.path);
      // Counted with the status that went out, whether this handler or the error handler answered.
      res.once('finish', () => countAnswer(s.e, res.statusCode));
      const out = await run(s, callerOf(req), { params: req.params as Record<string, string>, query: req.query, body: req.body });
      await send(res, out);
    });
  }
  return router;
}

/** Sends an endpoint's outcome: its headers, the total of a paged list, then the JSON, the file or nothing. */
export async function send(res: Response, out: Outcome): Promise<void> {
  res.set(out.headers);
  if (out.total !== undefined) res.set('X-Total-Count', String(out.total));
  res.status(out.status);
  if (out.json !== undefined) return void res.json(out.json);
  if (!out.file) return void res.end();
  res.set(out.file.headers);
  const body = out.file.body;
  if (Buffer.isBuffer(body)) return void res.send(body);
  for await (const chunk of body) {
    if (res.destroyed) return; // the caller left
    if (!res.write(chunk)) await new Promise<void>((resolve) => (res.once('drain', resolve), res.once('close', resolve)));
  }
  res.end();
}

function jsonObject(t: TFunction, body: unknown): unknown {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body) || Buffer.isBuffer(body)) {
    throw ApiError.detail(400, t('validation:expectedObject'), 'parse_error');
  }
  return body;
}

function parseWith<S extends z.ZodType>(t: TFunction, schema: S, input: unknown): z.output<S> {
  // reportInput: the issues carry the value, so a wrong type is told apart from a missing field.
  const r = schema.safeParse(input, { reportInput: true });
  if (!r.success) throw ApiError.fields(zodToFieldErrors(r.error, t));
  return r.data;
}

/** Path parameters that do not fit (an id that is not a positive integer) name nothing: 404. */
function parseParams<S extends z.ZodType>(t: TFunction, schema: S, params: Record<string, string>): z.output<S> {
  const r = schema.safeParse(params);
  if (!r.success) throw ApiError.detail(404, t('api:notFound'), 'not_found');
  return r.data;
}
