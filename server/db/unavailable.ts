/**
 * Errors that mean the database cannot be reached right now rather than that a request was wrong
 * (docs/rules/operations.md#5-when-the-database-goes-away): the API answers them 503 `unavailable` with Retry-After,
 * in the caller's language, and the pool makes new connections when the database is back.
 */

type ErrorLike = { code?: unknown; message?: unknown; errors?: unknown };

/** Seconds a caller is asked to wait before trying again (`Retry-After`) while the database is out of reach. */
export const UNAVAILABLE_RETRY_AFTER = '5';

/** The error's code: Node's (ECONNREFUSED), PostgreSQL's SQLSTATE (28P01), or the first of an AggregateError's. */
export function errorCode(err: unknown): string | undefined {
  if (!err || typeof err !== 'object') return undefined;
  const e = err as ErrorLike;
  if (typeof e.code === 'string') return e.code;
  if (Array.isArray(e.errors)) for (const inner of e.errors) if (errorCode(inner)) return errorCode(inner);
  return undefined;
}

/** Node's network errors on the way to the database. */
const NETWORK = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);

/**
 * PostgreSQL's: connection exceptions (class 08), the server shutting down or starting (57P01–57P03), no free
 * connection slots (53300).
 */
const POSTGRES = /^(08\w{3}|57P0[123]|53300)$/;

/** node-postgres's own words for a connection lost or not made in time (it gives them no code). */
const DRIVER =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended unexpectedly/i;

export function databaseUnavailable(err: unknown): boolean {
  const code = errorCode(err);
  if (code && (NETWORK.has(code) || POSTGRES.test(code))) return true;
  const message = err && typeof err === 'object' ? (err as ErrorLike).message : undefined;
  return typeof message === 'string' && DRIVER.test(message);
}
