import type { RequestListener } from 'node:http';
import { inject } from 'light-my-request';
import { Agent, errors as undiciErrors, request } from 'undici';

export type UpstreamResponse = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };

export class UpstreamError extends Error {
  constructor(
    readonly kind: 'timeout' | 'unreachable',
    cause: unknown,
  ) {
    super(kind === 'timeout' ? 'upstream timed out' : 'upstream unreachable', { cause });
  }
}

export type UpstreamTarget = { baseUrl: string } | { inProcess: RequestListener };

/**
 * The one way the server side (SSR loaders/actions and /bff) reaches the API, with a hard timeout, the user's
 * bearer token and the visitor's address and language passed along: over HTTP with undici (keep-alive) when
 * API_BASE_URL names the API's server, or handed straight to the API app in this process (light-my-request),
 * which spares a socket, a second HTTP parse and the page middleware on every call.
 */
export class Upstream {
  private readonly agent = new Agent({ keepAliveTimeout: 10_000, connections: 64 });
  constructor(
    private readonly target: UpstreamTarget,
    private readonly timeoutMs: number,
  ) {}

  async call(
    method: string,
    path: string,
    opts: {
      token?: string | null;
      body?: Buffer | string;
      contentType?: string;
      lang?: string;
      ip?: string | undefined;
      idempotencyKey?: string | undefined;
    } = {},
  ): Promise<UpstreamResponse> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (opts.idempotencyKey) headers['idempotency-key'] = opts.idempotencyKey;
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.contentType) headers['content-type'] = opts.contentType;
    if (opts.lang) headers['accept-language'] = opts.lang;
    if (opts.ip) headers['x-forwarded-for'] = opts.ip;
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

  private async inProcess(
    app: RequestListener,
    method: string,
    path: string,
    headers: Record<string, string>,
    body: Buffer | string | undefined,
  ): Promise<UpstreamResponse> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new UpstreamError('timeout', new Error(`no answer within ${this.timeoutMs} ms`))), this.timeoutMs);
    });
    try {
      const res = await Promise.race([
        inject(app, {
          method: method as 'GET',
          url: path,
          headers,
          ...(body === undefined ? {} : { payload: body }),
          remoteAddress: '127.0.0.1',
        }),
        timeout,
      ]);
      const h: UpstreamResponse['headers'] = {};
      for (const [k, v] of Object.entries(res.headers)) h[k] = typeof v === 'number' ? String(v) : v;
      return { status: res.statusCode, headers: h, body: res.rawPayload };
    } finally {
      clearTimeout(timer);
    }
  }

  async json(method: string, path: string, payload: unknown, opts: { token?: string | null; lang?: string; ip?: string | undefined } = {}) {
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

export function parseJson(b: Buffer): unknown {
  if (!b.length) return null;
  try {
    return JSON.parse(b.toString('utf8'));
  } catch {
    return null;
  }
}
