import { existsSync } from 'node:fs';
import path from 'node:path';
import type { NextFunction, Request, Response } from 'express';

/**
 * Serves the .br or .gz twin of a built script or stylesheet (made by scripts/build.ts) when the browser
 * accepts it; express.static then sends that file with the original type.
 */
export function precompressed(dir: string) {
  return (req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !/\.(js|css)$/.test(req.path)) return next();
    const accept = req.headers['accept-encoding'] ?? '';
    const file = path.join(dir, path.normalize(req.path));
    if (!file.startsWith(dir)) return next();
    for (const [enc, ext] of [
      ['br', '.br'],
      ['gzip', '.gz'],
    ] as const) {
      if (accept.includes(enc) && existsSync(file + ext)) {
        res.set({ 'Content-Encoding': enc, Vary: 'Accept-Encoding' });
        res.type(path.extname(req.path));
        req.url = req.url.replace(/(\?|$)/, `${ext}$1`);
        return next();
      }
    }
    next();
  };
}
