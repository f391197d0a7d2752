import { Agent, errors as undiciErrors, request } from 'undici';

export type UpstreamResponse = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };

export class UpstreamError extends Error {
  constructor(readonly kind: 'timeout' | 'unreachable', cause: unknown) {
    super(kind === 'timeout' ? 'upstream timed out' : 'upstream unreachable', { cause });
  }
}

/**
 * The one way the server side (SSR loaders/actions and /bff) reaches the API: undici with keep-alive,
 * a hard timeout, the user's bearer token and the visitor's address and language passed along.
 */
export class Upstream {
  private readonly agent = new Agent({ keepAliveTimeout: 10_000, connections: 64 });
  constructor(private readonly baseUrl: () => string, private readonly timeoutMs: number) {}

  async call(
    method: string,
    path: string,
    opts: { token?: string | null; body?: Buffer | string; contentType?: string; lang?: string; ip?: string | undefined } = {},
  ): Promise<UpstreamResponse> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.contentType) headers['content-type'] = opts.contentType;
    if (opts.lang) headers['accept-language'] = opts.lang;
    if (opts.ip) headers['x-forwarded-for'] = opts.ip;
    try {
      const res = await request(new URL(path, this.baseUrl()), {
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
      if (name === 'TimeoutError' || name === 'AbortError' || err instanceof undiciErrors.HeadersTimeoutError || err instanceof undiciErrors.BodyTimeoutError)
        throw new UpstreamError('timeout', err);
      throw new UpstreamError('unreachable', err);
    }
  }

  async json(method: string, path: string, payload: unknown, opts: { token?: string | null; lang?: string; ip?: string | undefined } = {}) {
    const res = await this.call(method, path, { ...opts, body: payload === undefined ? undefined : JSON.stringify(payload), contentType: payload === undefined ? undefined : 'application/json' });
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
