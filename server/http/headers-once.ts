import { randomBytes } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';

const NONCE_MARK = 'BHNONCEMARK0000000000000';

/**
 * A middleware that only sets the same response headers every time (helmet, configured in server/app.ts), run once
 * at start: each response then gets those headers in one loop, with its own CSP nonce (`res.locals.cspNonce`) where
 * the configuration put one. Throws at start if the middleware reads the request or answers asynchronously, which
 * would make its headers depend on the request.
 */
export function headersOnce(middleware: RequestHandler): RequestHandler {
  const set: { name: string; value: string; nonce: boolean }[] = [];
  const removed: string[] = [];
  const probe = {
    locals: { cspNonce: NONCE_MARK },
    setHeader(name: string, value: unknown) {
      const v = String(value);
      set.push({ name, value: v, nonce: v.includes(NONCE_MARK) });
    },
    removeHeader(name: string) {
      removed.push(name);
    },
  };
  const request = new Proxy({} as Request, {
    get: () => {
      throw new Error('headersOnce: the middleware reads the request');
    },
  });
  let done = false;
  void middleware(request, probe as unknown as Response, (err?: unknown) => {
    if (err) throw err as Error;
    done = true;
  });
  if (!done) throw new Error('headersOnce: the middleware did not finish at once');
  return (_req, res, next) => {
    for (const name of removed) res.removeHeader(name);
    for (const h of set) res.setHeader(h.name, h.nonce ? h.value.replaceAll(NONCE_MARK, res.locals.cspNonce as string) : h.value);
    next();
  };
}

/**
 * CSP nonces (16 random bytes, base64) cut from one 4 KiB draw of the system's random source at a time instead of
 * one draw per response: as unpredictable, never reused.
 */
export function nonceSource(): () => string {
  let pool = Buffer.alloc(0);
  let at = 0;
  return () => {
    if (at + 16 > pool.length) {
      pool = randomBytes(4096);
      at = 0;
    }
    const nonce = pool.toString('base64', at, at + 16);
    at += 16;
    return nonce;
  };
}
