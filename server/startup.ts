import { ConfigError } from './config.ts';
import { errorCode as codeOf } from './db/unavailable.ts';

/** What start-up was doing when it failed: building the app (database, migrations, seed) or listening. */
export type StartStep = 'prepare' | 'listen';

type Where = { databaseUrl?: string | undefined; port?: number; host?: string };

type ErrorLike = { code?: unknown; message?: unknown; errors?: unknown; path?: unknown; syscall?: unknown };

function messageOf(err: unknown): string {
  if (err && typeof err === 'object') {
    const e = err as ErrorLike;
    if (typeof e.message === 'string' && e.message) return e.message.split('\n')[0] as string;
    if (Array.isArray(e.errors) && e.errors.length) return messageOf(e.errors[0]);
  }
  return String(err);
}

/** host:port/database of DATABASE_URL, never its password. */
function databaseName(url: string | undefined): string {
  if (!url) return 'the embedded database';
  try {
    const u = new URL(url);
    return `PostgreSQL at ${u.hostname}:${u.port || 5432}${u.pathname.length > 1 ? u.pathname : ''}`;
  } catch {
    return 'PostgreSQL (DATABASE_URL)';
  }
}

const NETWORK: Record<string, string> = {
  ECONNREFUSED: 'refused the connection',
  ENOTFOUND: 'has a host name that does not resolve',
  EAI_AGAIN: 'has a host name that could not be resolved',
  ETIMEDOUT: 'did not answer',
  EHOSTUNREACH: 'is unreachable',
  ENETUNREACH: 'is unreachable',
  ECONNRESET: 'closed the connection',
};

const POSTGRES: Record<string, string> = {
  '28P01': 'refused the user name or password',
  '28000': 'refused the login',
  '3D000': 'has no such database',
  '42501': 'refused a permission the migrations need',
  '53300': 'has no free connections',
  '57P03': 'is starting up or shutting down',
};

/**
 * One line that names why the server could not start (server/index.ts prints it and exits non-zero): a bad
 * configuration, a database that cannot be reached or refuses the login, a port in use, a folder that cannot be
 * written. Anything else: the error's first line.
 */
export function startupFailure(err: unknown, step: StartStep, where: Where = {}): string {
  if (err instanceof ConfigError) return `Bhagya cannot start: ${err.message}`;
  const code = codeOf(err);
  const message = messageOf(err);
  const path = err && typeof err === 'object' && typeof (err as ErrorLike).path === 'string' ? ((err as ErrorLike).path as string) : null;

  if (step === 'listen') {
    const at = `port ${where.port ?? '?'}${where.host ? ` on ${where.host}` : ''}`;
    if (code === 'EADDRINUSE') return `Bhagya cannot start: ${at} is already in use (another server is running there); stop it or set PORT`;
    if (code === 'EACCES') return `Bhagya cannot start: not allowed to listen on ${at}; choose a PORT above 1023`;
    if (code === 'EADDRNOTAVAIL') return `Bhagya cannot start: HOST ${where.host ?? ''} is not an address of this machine`;
    return `Bhagya cannot start: could not listen on ${at}: ${message}`;
  }
  if (path && ['EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'ENOTDIR'].includes(code ?? ''))
    return `Bhagya cannot start: cannot write ${path} (${code}); check DATA_DIR`;
  const db = databaseName(where.databaseUrl);
  if (where.databaseUrl && code && NETWORK[code])
    return `Bhagya cannot start: the database (${db}) ${NETWORK[code]} (${code}); check DATABASE_URL and that PostgreSQL is running`;
  if (code && POSTGRES[code]) return `Bhagya cannot start: the database (${db}) ${POSTGRES[code]}: ${message}; check DATABASE_URL`;
  // A SQLSTATE (Node's own codes all start with E, no SQLSTATE class does).
  if (code && /^[0-9A-DF-Z][0-9A-Z]{4}$/.test(code))
    return `Bhagya cannot start: the database (${db}) failed: ${message} (SQLSTATE ${code})`;
  if (where.databaseUrl && /timeout|connection terminated/i.test(message))
    return `Bhagya cannot start: the database (${db}) did not answer in time (${message}); check DATABASE_URL and that PostgreSQL is running`;
  return `Bhagya cannot start: ${message}${code ? ` (${code})` : ''}`;
}
