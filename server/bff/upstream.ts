import type { TFunction } from 'i18next';
import { Agent, errors as undiciErrors, request } from 'undici';
import type { Endpoint } from '../../shared/api/endpoint.ts';
import { prepare } from '../../shared/api-client.ts';
import type { AccessClaims } from '../accounts/tokens.ts';
import type { Served } from '../http/route.ts';

export type UpstreamResponse = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };

export class UpstreamError extends Error {
  readonly kind: 'timeout' | 'unreachable';
  constructor(kind: 'timeout' | 'unreachable', cause: unknown) {
    super(kind === 'timeout' ? 'upstream timed out' : 'upstream unreachable', { cause });
    this.kind = kind;
  }
}

/** Who makes a call: the session's access token, the visitor's texts, language and address, his browser's device id. */
export type Who = {
  token: string | null;
  t: TFunction;
  lng: string;
  ip: string | undefined;
  /** The browser's device id (its `bh_vid`), sent with a login (docs/decisions/025-limits-for-shared-addresses.md). */
  deviceId?: string | undefined;
  /** The origin the visitor reached the site at (server/http/route.ts Caller.origin). */
  origin?: string | undefined;
  /**
   * How the token is checked in this process when not by LocalApi.authenticate itself: a page's reads share one check
   * (server/bff/server-api.ts).
   */
  check?: (token: string, t: TFunction) => Promise<Checked>;
};

/** A token checked (LocalApi.authenticate), with the top bar a player's page read in the same statement (authenticatePage). */
export type Checked = { claims: AccessClaims; topBar?: unknown };

/** A call's input: as the contract's clients give it (shared/api/endpoint.ts CallInput), or a raw body. */
export type LocalInput = {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
  idempotencyKey?: string | undefined;
  raw?: { body: Buffer; type: string };
};

/** An endpoint's answer: its status and headers, its JSON (or error body; null for none), the total of a paged list. */
export type Answered = { status: number; headers: Record<string, string | string[] | undefined>; data: unknown; total: number | null };

/** The API's endpoints in this process (server/api.ts): a call runs the endpoint's function, no HTTP on the way. */
export type LocalApi = {
  call(e: Endpoint, input: LocalInput, who: Who): Promise<Answered>;
  /** The user a session's access token stands for now, or the 401 to answer (server/http/auth.ts). */
  authenticate(token: string, t: TFunction): Promise<AccessClaims>;
  /** authenticate, as a check that read nothing more (what a call checked on its own, or a back-office page, has). */
  checkAlone(token: string, t: TFunction): Promise<Checked>;
  /**
   * The check of a player's page: authenticate, with the page's top bar (`GET /api/v1/top-bar/`'s answer) read in the
   * same statement (server/bff/server-api.ts).
   */
  authenticatePage(token: string, t: TFunction): Promise<Checked>;
  served: Map<Endpoint, Served>;
};

export type UpstreamTarget = { baseUrl: string } | { local: LocalApi };

type CallOptions = {
  token?: string | null;
  body?: Buffer | string;
  contentType?: string;
  lang?: string;
  ip?: string | undefined;
  idempotencyKey?: string | undefined;
  deviceId?: string | undefined;
};

/**
 * The one way the server side (SSR loaders/actions and /bff) reaches the API, with a hard timeout, the user's bearer
 * token and the visitor's address and language passed along (at login also the browser's device id): in this process
 * the endpoint's function is called (docs/decisions/027-one-in-process-path.md); when API_BASE_URL names the API's
 * server, over HTTP with undici (keep-alive).
 */
export class Upstream {
  private readonly agent = new Agent({ keepAliveTimeout: 10_000, connections: 64 });
  private readonly target: UpstreamTarget;
  private readonly timeoutMs: number;
  constructor(target: UpstreamTarget, timeoutMs: number) {
    this.target = target;
    this.timeoutMs = timeoutMs;
  }

  /** The API in this process, when it is here. */
  get local(): LocalApi | null {
    return 'local' in this.target ? this.target.local : null;
  }

  /** A contract endpoint: its function here, or its URL on the API's server. */
  async endpoint(e: Endpoint, input: LocalInput, who: Who): Promise<Answered> {
    if ('local' in this.target) return this.within(this.target.local.call(e, input, who));
    const p = prepare(e, input as never);
    const r = await this.call(e.method, p.url, {
      token: who.token,
      lang: who.lng,
      ip: who.ip,
      deviceId: who.deviceId,
      idempotencyKey: e.idempotent ? input.idempotencyKey : undefined,
      ...(input.raw
        ? { body: input.raw.body, contentType: input.raw.type }
        : p.json === undefined
          ? {}
          : { body: p.json, contentType: 'application/json' }),
    });
    const total = r.headers['x-total-count'];
    return { status: r.status, headers: r.headers, data: parseJson(r.body), total: typeof total === 'string' ? Number(total) : null };
  }

  /** A request to the API's server over HTTP (API_BASE_URL). */
  async call(method: string, path: string, opts: CallOptions = {}): Promise<UpstreamResponse> {
    if (!('baseUrl' in this.target)) throw new Error('the API is in this process: call its endpoints');
    const headers = headersOf(opts);
    try {
      const res = await request(new URL(path, this.target.baseUrl), {
        method: method as 'GET',
        headers,
        body: opts.body ?? null,
        dispatcher: this.agent,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      const body = Buffer.from(await res.body.arrayBuffer());
      return { status: res.statusCode, headers: res.headers, body };
    } catch (err) {
      const name = (err as { name?: string }).name;
      if (
        name === 'TimeoutError' ||
        name === 'AbortError' ||
        err instanceof undiciErrors.HeadersTimeoutError ||
        err instanceof undiciErrors.BodyTimeoutError
      )
        throw new UpstreamError('timeout', err);
      throw new UpstreamError('unreachable', err);
    }
  }

  /** An answer made in this process, bounded by the same timeout as a call over HTTP. */
  private async within<T>(answer: PromiseLike<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new UpstreamError('timeout', new Error(`no answer within ${this.timeoutMs} ms`))), this.timeoutMs);
    });
    try {
      return await Promise.race([answer, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

/** The request headers of an API call: JSON wanted, the user's bearer token, the visitor's language and address. */
function headersOf(opts: CallOptions): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (opts.idempotencyKey) headers['idempotency-key'] = opts.idempotencyKey;
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.contentType) headers['content-type'] = opts.contentType;
  if (opts.lang) headers['accept-language'] = opts.lang;
  if (opts.ip) headers['x-forwarded-for'] = opts.ip;
  if (opts.deviceId) headers['x-device-id'] = opts.deviceId;
  return headers;
}

export function parseJson(b: Buffer): unknown {
  if (!b.length) return null;
  try {
    return JSON.parse(b.toString('utf8'));
  } catch {
    return null;
  }
}
