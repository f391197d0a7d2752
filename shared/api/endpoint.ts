/**
 * An endpoint of the API declared once, as data: method, path, who may call it, and the schemas of its path
 * parameters, query, body and answer. The server registers its handler against it (server/http/route.ts), both
 * API clients derive their calls from it (shared/api-client.ts), and the OpenAPI document is made from it.
 */
import type { z } from 'zod';
import type { RefusalName } from './refusals.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/** public: anyone; user: a valid access token; staff: a staff member's token (the API checks, never the page). */
export type Access = 'public' | 'user' | 'staff';

export type Endpoint = {
  method: Method;
  /** Express-style path, `/api/v1/users/:id/`. */
  path: string;
  access: Access;
  summary: string;
  tag: string;
  params?: z.ZodType<Record<string, unknown>, Record<string, string>>;
  query?: z.ZodType<Record<string, unknown>, Record<string, unknown>>;
  /** A JSON body. */
  body?: z.ZodType;
  /** A raw body instead of JSON (the picture upload): its accepted content types. */
  raw?: readonly string[];
  /** The success status (200 unless said). */
  status?: number;
  /** The JSON answer; null: no JSON body (204, or a file). */
  reply: z.ZodType | null;
  /** The total of a paged list rides in the X-Total-Count header. */
  paged?: boolean;
  /** Takes an `Idempotency-Key` header: a retry with the same key answers with what the first request made. */
  idempotent?: boolean;
  /**
   * The refusals it may answer beyond those its shape gives (400 for input, 401 without a login, 403 permission_denied
   * for staff-only, 429, 503), by name from the catalogue (shared/api/refusals.ts; docs/decisions/064-refusals-as-data.md).
   * run() answers a refusal the endpoint does not list as a bug (500); the OpenAPI document lists each with its status.
   */
  refuses: readonly RefusalName[];
};

export const endpoint = <const E extends Endpoint>(e: E): E => e;

type Input<S> = S extends z.ZodType ? z.input<S> : never;
type Output<S> = S extends z.ZodType ? z.output<S> : never;

/** What a caller passes: path parameters, query and body, each only where the endpoint has one. */
export type CallInput<E extends Endpoint> = (E['params'] extends z.ZodType ? { params: Input<E['params']> } : { params?: never }) &
  (E['query'] extends z.ZodType ? { query?: Partial<Input<E['query']>> } : { query?: never }) &
  (E['body'] extends z.ZodType ? { body: Input<E['body']> } : { body?: never }) &
  (E['idempotent'] extends true ? { idempotencyKey?: string } : { idempotencyKey?: never });

/** What the caller gets back on success. */
export type Reply<E extends Endpoint> = E['reply'] extends z.ZodType ? Output<E['reply']> : null;

/** The endpoint's URL for these parameters and query (values are URI-encoded; empty query values left out). */
export function urlOf(e: Endpoint, params?: Record<string, unknown>, query?: Record<string, unknown>): string {
  const path = e.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null || value === '') throw new Error(`${e.method} ${e.path}: parameter ${name} is missing`);
    return encodeURIComponent(String(value));
  });
  const q = new URLSearchParams();
  for (const [k, value] of Object.entries(query ?? {})) if (value !== undefined && value !== null && value !== '') q.set(k, String(value));
  const qs = q.toString();
  return qs ? `${path}?${qs}` : path;
}
