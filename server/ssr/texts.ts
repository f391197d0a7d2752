import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { NextFunction, Request, Response } from 'express';
import type { Resource } from 'i18next';
import { CLIENT_NAMESPACES, ISLAND_NAMESPACES, LANGUAGES, TEXTS_GLOBAL, type Language } from '../../shared/i18n.ts';
import { safeJson } from '../../views/document.tsx';
import { pickEncoding, type Encoding } from './page-cache.ts';

/**
 * The texts a page's client translates with, as a script of their own per language and set of namespaces, named by
 * its content hash: the browser fetches it beside the entry module, keeps it for good, and a page no longer carries
 * them (docs/decisions/021-client-texts-are-a-script.md). Made once at start from the resources the server renders
 * with, so that the client always has the very texts of the server's HTML.
 */

/** Where the scripts are served. */
export const TEXTS_PATH = '/texts/';

/** A script's bodies: plain from the start, compressed when a browser first asks for that encoding. */
type File = { bodies: Partial<Record<Encoding, Buffer>> & { identity: Buffer } };

const compress: Record<Exclude<Encoding, 'identity'>, (b: Buffer) => Buffer> = {
  gzip: (b) => gzipSync(b, { level: 9 }),
  br: (b) => brotliCompressSync(b, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT } }),
};

export type ClientTexts = {
  /** The script for a page of this language: the islands' few namespaces, or every client namespace. */
  src(lng: Language, islands: boolean): string;
  /** Serves the scripts (mounted at TEXTS_PATH); anything else there is a 404. */
  serve(req: Request, res: Response, next: NextFunction): void;
};

export function clientTexts(resources: Resource): ClientTexts {
  const files = new Map<string, File>();
  const srcs = new Map<string, string>();
  for (const lng of LANGUAGES) {
    for (const [set, namespaces] of [
      ['islands', ISLAND_NAMESPACES],
      ['client', CLIENT_NAMESPACES],
    ] as const) {
      const texts = Object.fromEntries(namespaces.map((ns) => [ns, resources[lng]?.[ns] ?? {}]));
      const identity = Buffer.from(`self.${TEXTS_GLOBAL}=${safeJson(texts)};\n`, 'utf8');
      const name = `${lng}-${set}-${createHash('sha256').update(identity).digest('base64url').slice(0, 16)}.js`;
      files.set(name, { bodies: { identity } });
      srcs.set(`${lng}|${set === 'islands'}`, `${TEXTS_PATH}${name}`);
    }
  }
  return {
    src: (lng, islands) => srcs.get(`${lng}|${islands}`) as string,
    serve(req, res, next) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return next();
      const file = files.get(req.path.replace(/^\//, ''));
      if (!file) return void res.status(404).type('text/plain').send('Not found');
      const enc = pickEncoding(req.headers['accept-encoding']);
      const body = (file.bodies[enc] ??= compress[enc as Exclude<Encoding, 'identity'>](file.bodies.identity));
      res.writeHead(200, [
        'content-type',
        'text/javascript; charset=utf-8',
        'cache-control',
        'public, max-age=31536000, immutable',
        'vary',
        'Accept-Encoding',
        ...(enc === 'identity' ? [] : ['content-encoding', enc]),
        'content-length',
        String(body.length),
      ]);
      res.end(req.method === 'HEAD' ? undefined : body);
    },
  };
}
