import type { z } from 'zod';
import type { LoginBody, VerifyOtpBody } from './accounts/schemas.ts';
import { urlOf, type CallInput, type Endpoint, type Reply } from './api/endpoint.ts';
import type { ApiResult, SessionUser } from './api-types.ts';

/** The arguments of a call: the input may be left out where the endpoint takes none. */
export type CallArgs<E extends Endpoint> = object extends CallInput<E> ? [input?: CallInput<E>] : [input: CallInput<E>];

/**
 * A request ready for a transport: the URL from the endpoint's path, parameters and query; the body as JSON; the
 * request headers the endpoint declares (only `Idempotency-Key` of an `idempotent` endpoint, never a free-form bag).
 */
export type Prepared = { method: Endpoint['method']; url: string; json?: string; headers: { 'idempotency-key'?: string } };

export function prepare<E extends Endpoint>(e: E, input: CallInput<E> | undefined): Prepared {
  const i = (input ?? {}) as { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown; idempotencyKey?: string };
  return {
    method: e.method,
    url: urlOf(e, i.params, i.query),
    ...(i.body === undefined ? {} : { json: JSON.stringify(i.body) }),
    headers: e.idempotent && i.idempotencyKey ? { 'idempotency-key': i.idempotencyKey } : {},
  };
}

/**
 * One API client interface, two transports: on the server the upstream API with the user's token
 * (server/bff/server-api.ts), in the browser /bff with the session cookie and the CSRF header (client/bff-api.ts).
 * Calls name an endpoint of shared/api/contract.ts, never a URL; its types come from the contract.
 */
export interface ApiClient {
  call<E extends Endpoint>(e: E, ...args: CallArgs<E>): Promise<ApiResult<Reply<E>>>;
  /** A raw upload (a picture, a bKash statement) to an endpoint that takes one; `query`: the endpoint's query (the file's name). */
  upload<E extends Endpoint & { raw: readonly string[] }>(e: E, file: Blob, query?: Record<string, string>): Promise<ApiResult<Reply<E>>>;
  /** Logs in through the server, which keeps the tokens in its HttpOnly cookie. */
  login(body: z.input<typeof LoginBody>): Promise<ApiResult<SessionUser>>;
  /** Checks the sign-up code; the right one signs in as login does (docs/rules/accounts-and-codes.md#3-account-verification). */
  verifyAccount(body: z.input<typeof VerifyOtpBody>): Promise<ApiResult<SessionUser>>;
  logout(): Promise<void>;
  /**
   * Whether a call of this page's request found the session ended (the API refused its token: logged out elsewhere,
   * all sessions ended, account deactivated; docs/rules/accounts-and-codes.md#10-sessions). The server's transport
   * knows it; the browser's answers false (its next session read sees the cookie gone).
   */
  sessionEnded(): boolean;
  /** The session fields the page may know, and the CSRF token for its forms. */
  session(): Promise<{ user: SessionUser | null; csrf: string }>;
  /**
   * A new access token now, so that the session's name and phone are the account's as they are after a change of
   * the profile (they come from the token; docs/rules/accounts-and-codes.md#11-profile).
   */
  renewSession(): Promise<void>;
}
