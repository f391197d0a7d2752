/**
 * Calling the API as its contract declares it (shared/api/contract.ts): the method and the URL come from the endpoint,
 * so a test of what an endpoint does names the endpoint, not its path (a test of the URL itself still writes it out).
 */
import request from 'supertest';
import { urlOf, type CallInput, type Endpoint } from '../../shared/api/endpoint.ts';
import type { TestApp } from './app.ts';

/** Endpoint `e`'s URL behind the BFF (`/bff` + its path, its parameters and query filled in), as the browser calls it. */
export const viaBff = (e: Endpoint, params?: Record<string, unknown>, query?: Record<string, unknown>): string =>
  `/bff${urlOf(e, params, query)}`;

/** Who calls: an account with its access token (`auth`, as the factories make it), or null for anonymous. */
export type Caller = { auth: [string, string] } | null;

const METHODS = { GET: 'get', POST: 'post', PUT: 'put', PATCH: 'patch', DELETE: 'delete' } as const;

/**
 * A request to endpoint `e` (its path parameters filled in) as `who`, in the language `lang` (English unless told),
 * not yet sent: the test sends any body it likes, a wrong one included.
 */
export function to(
  t: Pick<TestApp, 'url'>,
  e: Endpoint,
  o: { params?: Record<string, unknown>; query?: Record<string, unknown>; as?: Caller; lang?: string } = {},
) {
  const url = urlOf(e, o.params, o.query);
  const agent = request(t.url);
  const r = agent[METHODS[e.method]](url).set('Accept-Language', o.lang ?? 'en');
  return o.as ? r.set(...o.as.auth) : r;
}

/** A call of endpoint `e` with input its schemas accept (params, query, body, idempotency key), as `who`, in `lang`. */
export function call<E extends Endpoint>(t: Pick<TestApp, 'url'>, e: E, input: CallInput<E>, o: { as?: Caller; lang?: string } = {}) {
  const { params, query, body, idempotencyKey } = input as { params?: object; query?: object; body?: object; idempotencyKey?: string };
  const r = to(t, e, { params: params as Record<string, unknown>, query: query as Record<string, unknown>, ...o });
  const keyed = idempotencyKey === undefined ? r : r.set('Idempotency-Key', idempotencyKey);
  return body === undefined ? keyed : keyed.send(body);
}
