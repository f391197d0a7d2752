import type { Request, Response } from 'express';
import type { Resource } from 'i18next';
import { BACKGROUND_COLOUR, ICONS, THEME_COLOUR } from '../../shared/app-shell.ts';
import { LANGUAGES, type Language } from '../../shared/i18n.ts';

/**
 * The web manifest in each language (docs/rules/app.md#1-the-manifest): what a browser needs to install the site as an
 * app (Chromium's criteria: a name, 192 and 512 px icons, `display: standalone`, a start URL in scope).
 */
export type WebManifest = {
  id: string;
  name: string;
  short_name: string;
  description: string;
  lang: Language;
  dir: 'ltr';
  start_url: string;
  scope: string;
  display: 'standalone';
  orientation: 'any';
  theme_color: string;
  background_color: string;
  icons: { src: string; sizes: string; type: string; purpose: 'any' | 'maskable' }[];
};

const text = (resources: Resource, lng: Language, ns: string, key: string): string => {
  let v: unknown = resources[lng]?.[ns];
  for (const k of key.split('.')) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;
  if (typeof v !== 'string') throw new Error(`missing text ${lng}/${ns}:${key}`);
  return v;
};

export function webManifest(resources: Resource, lng: Language): WebManifest {
  return {
    // One app in both languages: the same id, whichever manifest installed it.
    id: '/',
    name: text(resources, lng, 'common', 'brand'),
    short_name: text(resources, lng, 'app', 'manifest.shortName'),
    description: text(resources, lng, 'app', 'manifest.description'),
    lang: lng,
    dir: 'ltr',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    orientation: 'any',
    theme_color: THEME_COLOUR,
    background_color: BACKGROUND_COLOUR,
    icons: [
      { src: ICONS.any192, sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: ICONS.any512, sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: ICONS.maskable512, sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
    ],
  };
}

/**
 * The manifests made once at start: `send(lng)` answers with the one of that language. The texts change only with a
 * new version, so an hour in the browser's cache is safe.
 */
export function webManifests(resources: Resource) {
  const bodies = new Map(LANGUAGES.map((lng) => [lng, JSON.stringify(webManifest(resources, lng))]));
  return (lng: Language) => (_req: Request, res: Response) => {
    res
      .status(200)
      .set('Content-Type', 'application/manifest+json; charset=utf-8')
      .set('Cache-Control', 'public, max-age=3600')
      .send(bodies.get(lng));
  };
}
