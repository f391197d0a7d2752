import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Request, Response } from 'express';
import type { Resource } from 'i18next';
import { SW_CONFIG_GLOBAL, type OfflineTexts, type SwConfig } from '../../shared/app-shell.ts';
import { LANGUAGES, type Language } from '../../shared/i18n.ts';
import { safeJson } from '../../views/document.tsx';
import type { Manifest } from '../ssr/assets.ts';
import { notModified } from '../ssr/page-cache.ts';
import type { ClientTexts } from '../ssr/texts.ts';

/**
 * /sw.js (docs/rules/app.md#3-the-service-worker): the worker the build wrote (client/sw.ts → dist/client/sw.js), with
 * its config written before it: this version's name, the files to keep at install and the offline texts. The server
 * writes the config because only it knows all of them (the client texts' names are made at start,
 * server/ssr/texts.ts).
 */

/** The fonts the stylesheet declares (each Bengali weight a page may use). */
function fontsOf(clientDir: string, css: readonly string[]): string[] {
  const fonts = new Set<string>();
  for (const href of css) {
    const file = path.join(clientDir, href);
    if (!existsSync(file)) continue;
    for (const m of readFileSync(file, 'utf8').matchAll(/url\(["']?(\/fonts\/[^"')]+\.woff2)/g)) fonts.add(m[1] as string);
  }
  return [...fonts].sort();
}

const FAVICON = '/favicon.svg';

/**
 * The files a version keeps at install: the stylesheet, both entries and every module they import at once (not the
 * pages' own chunks, fetched as pages are opened, nor anything only the back office loads), the client texts of each
 * language, the fonts and the favicon. Not the app's PNG icons: the browser fetches those itself when it installs.
 */
export function precacheList(m: Manifest, texts: Pick<ClientTexts, 'src'>, fonts: readonly string[]): string[] {
  // What every page loads first; the back office's own chunks are route chunks, never among them (bench/size.ts).
  const shell = [...m.css, m.entry, ...m.entryImports, m.islands, ...m.islandsImports].filter((f) => f !== '');
  const textScripts = LANGUAGES.flatMap((lng) => [texts.src(lng, true), texts.src(lng, false)]);
  return [...new Set([...shell, ...textScripts, ...fonts, FAVICON])];
}

/** The offline texts of a language (locales/<lng>/app.json). */
function offlineTexts(resources: Resource, lng: Language): OfflineTexts {
  const o = (resources[lng]?.app as { offline?: Partial<OfflineTexts> } | undefined)?.offline ?? {};
  const need = (k: keyof OfflineTexts) => {
    const v = o[k];
    if (typeof v !== 'string') throw new Error(`missing text ${lng}/app:offline.${k}`);
    return v;
  };
  return { banner: need('banner'), title: need('title'), text: need('text'), retry: need('retry'), home: need('home') };
}

/** The script served at /sw.js: the config, then the built worker; its version a hash of both. */
export function serviceWorkerScript(
  code: string,
  precache: string[],
  texts: Record<Language, OfflineTexts>,
): { body: string; version: string } {
  const version = createHash('sha256')
    .update(code)
    .update('\0')
    .update(JSON.stringify({ precache, texts }))
    .digest('base64url')
    .slice(0, 16);
  const config: SwConfig = { version, precache, texts };
  return { body: `self.${SW_CONFIG_GLOBAL}=${safeJson(config)};\n${code}`, version };
}

export type ServiceWorkerDeps = {
  /** The folder of the client build (dist/client): sw.js, and the stylesheet read for its fonts. */
  clientDir: string;
  manifest: () => Manifest;
  texts: Pick<ClientTexts, 'src'>;
  resources: Resource;
};

/**
 * Serves /sw.js: `Cache-Control: no-cache` and an ETag (the version), so that the browser asks at every check and a
 * new version is seen at the next one while an unchanged one costs a 304. 404 while there is no build.
 */
export function serviceWorker(d: ServiceWorkerDeps) {
  const file = path.join(d.clientDir, 'sw.js');
  const texts = Object.fromEntries(LANGUAGES.map((lng) => [lng, offlineTexts(d.resources, lng)])) as Record<Language, OfflineTexts>;
  let made: { mtime: number; manifest: Manifest; body: string; etag: string } | null = null;
  const current = () => {
    if (!existsSync(file)) return null;
    const mtime = statSync(file).mtimeMs;
    const manifest = d.manifest();
    if (!made || made.mtime !== mtime || made.manifest !== manifest) {
      const precache = precacheList(manifest, d.texts, fontsOf(d.clientDir, manifest.css));
      const { body, version } = serviceWorkerScript(readFileSync(file, 'utf8'), precache, texts);
      made = { mtime, manifest, body, etag: `"${version}"` };
    }
    return made;
  };
  return (req: Request, res: Response) => {
    const sw = current();
    if (!sw) return void res.status(404).set('Cache-Control', 'no-store').type('text/plain').send('Not found');
    res.set('Cache-Control', 'no-cache').set('ETag', sw.etag);
    if (notModified(req.headers['if-none-match'], sw.etag)) return void res.status(304).end();
    res.status(200).type('text/javascript; charset=utf-8').send(sw.body);
  };
}
