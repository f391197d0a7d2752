import type { RequestListener } from 'node:http';
import { inject } from 'light-my-request';
import { Agent, errors as undiciErrors, request } from 'undici';
import type { Endpoint } from '../../shared/api/endpoint.ts';

export type UpstreamResponse = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };

export class UpstreamError extends Error {
  constructor(
    readonly kind: 'timeout' | 'unreachable',
    cause: unknown,
  ) {
    super(kind === 'timeout' ? 'upstream timed out' : 'upstream unreachable', { cause });
  }
}

/**
 * A call of a contract endpoint handed straight to its pipeline in this process (server/api.ts, directApi), with the
 * headers an HTTP call would carry; null when the endpoint is not served that way (the call is then made over HTTP).
 */
export type DirectApi = (
  e: Endpoint,
  url: string,
  headers: Record<string, string>,
  json: string | undefined,
) => Promise<UpstreamResponse> | null;

export type UpstreamTarget = { baseUrl: string } | { inProcess: RequestListener; direct?: DirectApi };

type CallOptions = {
  token?: string | null;
  body?: Buffer | string;
  contentType?: string;
  lang?: string;
  ip?: string | undefined;
  idempotencyKey?: string | undefined;
  /** The browser's device id (its `bh_vid`), sent with a login (docs/decisions/025-limits-for-shared-addresses.md). */
  deviceId?: string | undefined;
};

/**
 * The one way the server side (SSR loaders/actions and /bff) reaches the API, with a hard timeout, the user's
 * bearer token and the visitor's address and language passed along (at login also the browser's device id): over
 * HTTP with undici (keep-alive) when API_BASE_URL names the API's server, or handed straight to the API app in this process (light-my-request),
 * which spares a socket, a second HTTP parse and the page middleware on every call. A page's call of a contract
 * endpoint (`endpoint`) goes further in process: straight to the endpoint's handler (docs/decisions/013-logged-in-pages.md).
 */
export class Upstream {
  private readonly agent = new Agent({ keepAliveTimeout: 10_000, connections: 64 });
  constructor(
    private readonly target: UpstreamTarget,
    private readonly timeoutMs: number,
  ) {}

  async call(method: string, path: string, opts: CallOptions = {}): Promise<UpstreamResponse> {
    const headers = headersOf(opts);
    if ('inProcess' in this.target) return this.inProcess(this.target.inProcess, method, path, headers, opts.body);
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

  /**
   * A contract endpoint with its prepared URL and JSON body: handed to its handler when the API is in this process
   * and serves it directly, otherwise called as any other request.
   */
  async endpoint(
    e: Endpoint,
    url: string,
    json: string | undefined,
    opts: Omit<CallOptions, 'body' | 'contentType'> = {},
  ): Promise<UpstreamResponse> {
    const withBody = { ...opts, body: json, contentType: json === undefined ? undefined : 'application/json' };
    const direct = 'inProcess' in this.target ? this.target.direct?.(e, url, headersOf(withBody), json) : null;
    return direct ? this.within(direct) : this.call(e.method, url, withBody);
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

  private async inProcess(
    app: RequestListener,
    method: string,
    path: string,
    headers: Record<string, string>,
    body: Buffer | string | undefined,
  ): Promise<UpstreamResponse> {
    const res = await this.within(
      inject(app, {
        method: method as 'GET',
        url: path,
        headers,
        ...(body === undefined ? {} : { payload: body }),
        remoteAddress: '127.0.0.1',
      }),
    );
    const h: UpstreamResponse['headers'] = {};
    for (const [k, v] of Object.entries(res.headers)) h[k] = typeof v === 'number' ? String(v) : v;
    return { status: res.statusCode, headers: h, body: res.rawPayload };
  }

  async json(
    method: string,
    path: string,
    payload: unknown,
    opts: { token?: string | null; lang?: string; ip?: string | undefined; deviceId?: string | undefined } = {},
  ) {
    const res = await this.call(method, path, {
      ...opts,
      body: payload === undefined ? undefined : JSON.stringify(payload),
      contentType: payload === undefined ? undefined : 'application/json',
    });
    return { ...res, data: parseJson(res.body) };
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
