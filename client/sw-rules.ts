/**
 * The service worker's decisions as plain functions (docs/rules/app.md), unit-tested in tests/unit/sw-rules.test.ts;
 * client/sw.ts does the caching around them.
 */
import { OFFLINE_COPY_HEADER, OFFLINE_OWNER_HEADER, type OfflineCopy, type OfflineTexts } from '../shared/app-shell.ts';
import { formatDate } from '../shared/dates.ts';
import type { Language } from '../shared/i18n.ts';

/** Addresses never kept, whatever a response says: the back office, the API, the BFF. */
const NEVER_KEPT = /^\/(admin|api|bff)(\/|$)/;

/** What the worker needs of a response (a Response has all of it). */
export type SeenResponse = { status: number; type: string; headers: { get(name: string): string | null } };

/** The player a page was rendered for ('' for nobody): the server's keyed hash of his id. */
export const ownerOf = (r: SeenResponse): string => r.headers.get(OFFLINE_OWNER_HEADER) ?? '';

/**
 * Whether a page the network answered may be kept for offline use, and as what (docs/rules/app.md#2-what-is-kept):
 * only a same-origin 200 HTML page the server marked, never under /admin, /api or /bff, and a player's page only with
 * its owner.
 */
export function keepAs(url: URL, r: SeenResponse): OfflineCopy | null {
  if (r.status !== 200 || r.type !== 'basic' || NEVER_KEPT.test(url.pathname)) return null;
  if (!(r.headers.get('content-type') ?? '').startsWith('text/html')) return null;
  const kind = r.headers.get(OFFLINE_COPY_HEADER);
  if (kind === 'public') return kind;
  if (kind === 'player' && ownerOf(r)) return kind;
  return null;
}

/**
 * Whether a kept copy may be shown to whoever uses the browser now: a public page kept for nobody to anyone; a page
 * kept for a player only while the last page the network answered was his (`currentOwner`).
 */
export const mayServe = (copyOwner: string, currentOwner: string): boolean => copyOwner === '' || copyOwner === currentOwner;

/**
 * The ways a session ends from a page: the logout form's post, the hydrated client's BFF logout, "log out everywhere"
 * through the BFF, the API's own logout (shared/api/contract.ts). (The no-JavaScript "log out everywhere" posts to
 * /profile; the login page it leads to, a page of nobody, has the same effect.)
 */
const LOGOUTS = /^\/(?:bff\/)?(?:logout|api\/v1\/logout-everywhere|api\/token\/blacklist)\/?$/;

/** Whether a request ends the session: the player's copies go at once, whatever its answer. */
export const isLogout = (method: string, url: URL): boolean => method === 'POST' && LOGOUTS.test(url.pathname);

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The language of a kept page, from its `<html lang>`. */
export const languageOf = (html: string): Language => (/<html[^>]*\slang="bn"/.test(html) ? 'bn' : 'en');

/** What a kept page loads that it must not offline: its scripts and module preloads (and the manifest, not needed). */
const LOADS = /<script\b[^>]*\ssrc="[^"]*"[^>]*><\/script>|<link rel="(?:modulepreload|manifest)"[^>]*>/g;

/**
 * A kept page as it is shown offline: plain HTML, without the scripts it loads (a hydrated page would ask the network
 * for its data; its links are page loads the worker answers; inline scripts, React's own, stay), marked
 * `<html data-offline>`, with a banner first in the body: the time it was kept, in its language and in Dhaka time.
 */
export function offlineCopy(html: string, storedAt: string, texts: Record<Language, OfflineTexts>): string {
  const lng = languageOf(html);
  const time = formatDate(storedAt, lng, { withTime: true }) ?? storedAt;
  const banner = `<div class="offline-banner" role="status">${escapeHtml(texts[lng].banner.replace('{{time}}', time))}</div>`;
  return html
    .replace(LOADS, '')
    .replace(/<html(?=[\s>])/, '<html data-offline=""')
    .replace(/<body([^>]*)>/, (m) => `${m}${banner}`);
}

/** The page shown offline for an address with no kept copy (or one kept for another player). */
export function offlinePage(lng: Language, texts: OfflineTexts, stylesheets: readonly string[], retryHref: string): string {
  const e = escapeHtml;
  return [
    `<!DOCTYPE html><html lang="${lng}" dir="ltr" data-offline=""><head><meta charset="utf-8">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<link rel="icon" href="/favicon.svg" type="image/svg+xml">',
    `<title>${e(texts.title)}</title>`,
    ...stylesheets.map((href) => `<link rel="stylesheet" href="${e(href)}">`),
    `</head><body><main id="main" class="main"><section class="container narrow page-message offline-page">`,
    `<h1>${e(texts.title)}</h1><p>${e(texts.text)}</p>`,
    `<p><a class="btn btn-primary" href="${e(retryHref)}">${e(texts.retry)}</a> <a class="btn btn-ghost" href="/">${e(texts.home)}</a></p>`,
    '</section></main></body></html>',
  ].join('');
}

/** A notification as the worker shows it: its title, and the options `showNotification` takes. */
export type PushNotice = {
  title: string;
  options: { body: string; icon: string; badge: string; tag: string; lang?: string; data: { url: string } };
};

/** Where a notification without a usable address of this site leads. */
const PUSH_FALLBACK = '/notifications';

/**
 * A push's payload (shared/push/kinds.ts PushPayload, docs/rules/messages.md#6-push-notifications) as a notification:
 * its title, text and tag, the app's icon, and the address a tap opens, only ever a path of this site. A payload that
 * is not ours (no text, not JSON) still shows the site's name and leads to the notifications page: a push must show
 * something.
 */
export function pushNotice(data: unknown, icon: string, fallbackTitle: string): PushNotice {
  const p = (data && typeof data === 'object' ? data : {}) as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  const url = text(p.url);
  return {
    title: text(p.title) || fallbackTitle,
    options: {
      body: text(p.body),
      icon,
      badge: icon,
      tag: text(p.tag) || 'bhagya',
      data: { url: url.startsWith('/') && !url.startsWith('//') && !url.startsWith('/\\') ? url : PUSH_FALLBACK },
    },
  };
}

/** The page a tapped notification opens: its path on this site's origin (anything else: the notifications page). */
export function pushTarget(data: unknown, origin: string): string {
  const url = data && typeof data === 'object' ? (data as Record<string, unknown>).url : undefined;
  const path = typeof url === 'string' && url.startsWith('/') && !url.startsWith('//') && !url.startsWith('/\\') ? url : PUSH_FALLBACK;
  return new URL(path, origin).href;
}
