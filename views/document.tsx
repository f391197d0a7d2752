import type { ReactNode } from 'react';
import { ICONS, manifestPath, THEME_COLOUR } from '../shared/app-shell.ts';
import type { Language } from '../shared/i18n.ts';

export type PageAssets = { css: string[]; modulepreload: string[]; entry: string; fontPreload: Partial<Record<Language, string>> };

/** JSON inside a script element: `<` is escaped so no value can close the element. */
export const safeJson = (v: unknown) =>
  JSON.stringify(v)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

export const DATA_ELEMENT_ID = '__bh_data';

/** A route error as it crosses to the browser in the hydration data (server/ssr/page.tsx writes, client/entry.tsx revives). */
export type SerializedError =
  { __type: 'RouteErrorResponse'; status: number; statusText: string; data: unknown } | { __type: 'Error'; message: string };

/**
 * The HTML shell around the app: the app lives in #root, hydration data (already safeJson'd) in a non-executable JSON
 * script, then the client's texts (a deferred script of their own, cached for good: server/ssr/texts.ts) and the entry
 * module, which runs after it (both with the response's CSP nonce, none on a kept or shared page).
 */
export function Document({
  lng,
  assets,
  dataJson,
  texts,
  nonce,
  children,
}: {
  lng: Language;
  assets: PageAssets;
  dataJson: string;
  texts?: string | undefined;
  nonce?: string | undefined;
  children: ReactNode;
}) {
  const font = assets.fontPreload[lng];
  return (
    <html lang={lng} dir="ltr">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <meta name="theme-color" content={THEME_COLOUR} />
        <meta name="color-scheme" content="light" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {/* The installable app (docs/rules/app.md#1-the-manifest): the manifest of the page's language. */}
        <link rel="manifest" href={manifestPath(lng)} />
        <link rel="apple-touch-icon" href={ICONS.apple} />
        {font ? <link rel="preload" href={font} as="font" type="font/woff2" crossOrigin="anonymous" /> : null}
        {assets.css.map((href) => (
          <link key={href} rel="stylesheet" href={href} />
        ))}
        {assets.entry ? <link rel="modulepreload" href={assets.entry} /> : null}
        {assets.modulepreload.map((href) => (
          <link key={href} rel="modulepreload" href={href} />
        ))}
      </head>
      <body>
        <div id="root">{children}</div>
        <script type="application/json" id={DATA_ELEMENT_ID} dangerouslySetInnerHTML={{ __html: dataJson }} />
        {assets.entry && texts ? <script src={texts} defer nonce={nonce} /> : null}
        {assets.entry ? <script type="module" src={assets.entry} nonce={nonce} /> : null}
      </body>
    </html>
  );
}
