/**
 * The service worker (docs/rules/app.md#3-the-service-worker), written by hand and kept small. Built on its own by
 * scripts/build-config.ts (`serviceWorkerOptions`) into dist/client/sw.js and served at /sw.js by
 * server/pwa/service-worker.ts, which writes its config (SwConfig) before it.
 * - Navigations: the network, always, while there is one; kept copies only when it fails (no network at all).
 * - The shell (hashed scripts, stylesheet, client texts, fonts, icons): kept at install, answered from this version's
 *   cache.
 * - Anything else (the API, the BFF, posts, other files) is not touched.
 * The decisions themselves are the plain functions of client/sw-rules.ts.
 */
import { ICONS, SW_CONFIG_GLOBAL, SW_TAKE_OVER, type SwConfig } from '../shared/app-shell.ts';
import type { Language } from '../shared/i18n.ts';
import { isLogout, keepAs, languageOf, mayServe, offlineCopy, offlinePage, ownerOf, pushNotice, pushTarget } from './sw-rules.ts';

// The worker's own types (the project's lib is the DOM's, not the WebWorker one).
type ExtendableEvent = Event & { waitUntil(p: Promise<unknown>): void };
type FetchEvent = ExtendableEvent & {
  readonly request: Request;
  readonly preloadResponse: Promise<Response | undefined>;
  respondWith(r: Response | Promise<Response>): void;
};
type MessageEvt = ExtendableEvent & { readonly data: unknown };
type PushEvt = ExtendableEvent & { readonly data: { json(): unknown } | null };
type NotificationEvt = ExtendableEvent & { readonly notification: Notification };
type WindowClient = { readonly url: string; focus(): Promise<unknown>; navigate?(url: string): Promise<unknown> };
type WorkerScope = {
  readonly location: Location;
  readonly registration: ServiceWorkerRegistration;
  readonly clients: {
    claim(): Promise<void>;
    matchAll(o: { type: 'window'; includeUncontrolled: boolean }): Promise<readonly WindowClient[]>;
    openWindow(url: string): Promise<unknown>;
  };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', h: (e: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', h: (e: FetchEvent) => void): void;
  addEventListener(type: 'message', h: (e: MessageEvt) => void): void;
  addEventListener(type: 'push', h: (e: PushEvt) => void): void;
  addEventListener(type: 'notificationclick', h: (e: NotificationEvt) => void): void;
};

const sw = self as unknown as WorkerScope;
const config = (self as unknown as Record<string, SwConfig>)[SW_CONFIG_GLOBAL] as SwConfig;

/** This version's shell; the kept pages (any version's: a page whose stylesheet is gone is dropped at activation). */
const SHELL = `bhagya-shell-${config.version}`;
const SHELL_PREFIX = 'bhagya-shell-';
const PAGES = 'bhagya-pages';
/** Who the last page the network answered was for, and its language (kept: a worker is stopped and started at will). */
const STATE = 'bhagya-state';
const STATE_KEY = '/offline-state';
/** At most this many pages are kept; the oldest goes first. */
const MAX_PAGES = 30;
/** When a copy was kept (ISO), on the copy's headers. */
const STORED_AT = 'x-offline-stored-at';

const shellFiles = new Set(config.precache);
const stylesheets = config.precache.filter((f) => f.endsWith('.css'));

type State = { owner: string; lng: Language };

async function readState(): Promise<State> {
  const r = await (await caches.open(STATE)).match(STATE_KEY);
  const s = r ? ((await r.json()) as Partial<State>) : {};
  return { owner: typeof s.owner === 'string' ? s.owner : '', lng: s.lng === 'bn' ? 'bn' : 'en' };
}

const writeState = async (s: State) =>
  (await caches.open(STATE)).put(STATE_KEY, new Response(JSON.stringify(s), { headers: { 'content-type': 'application/json' } }));

/** Deletes the kept pages of every player but `owner` ('' : of every player). Public pages stay. */
async function forgetPlayersBut(owner: string): Promise<void> {
  const cache = await caches.open(PAGES);
  for (const key of await cache.keys()) {
    const copy = await cache.match(key);
    const of = copy ? ownerOf(copy) : '';
    if (of && of !== owner) await cache.delete(key);
  }
}

/**
 * A logout: the player's pages go, and until a page says otherwise nobody is logged in. This browser's push
 * subscription ends too (docs/rules/messages.md#6-push-notifications): his wins must not show on a device he left; the
 * push service's 410 then makes the server forget the device.
 */
async function forgetPlayer(): Promise<void> {
  const s = await readState();
  await forgetPlayersBut('');
  await writeState({ ...s, owner: '' });
  const push = await sw.registration.pushManager?.getSubscription().catch(() => null);
  await push?.unsubscribe().catch(() => false);
}

/**
 * What a page the network answered tells: who it was for (another player than before, or nobody: the other's pages go),
 * and, when the server marked it, the page itself is kept for offline use with the time it was kept.
 */
async function remember(url: URL, res: Response): Promise<void> {
  // A redirect or another origin's answer says nothing about who is logged in.
  if (res.type !== 'basic' || !(res.headers.get('content-type') ?? '').startsWith('text/html')) return;
  const owner = ownerOf(res);
  const state = await readState();
  if (owner !== state.owner) await forgetPlayersBut(owner);
  const kind = keepAs(url, res);
  const html = kind ? await res.text() : '';
  await writeState({ owner, lng: kind ? languageOf(html) : state.lng });
  if (!kind) return;
  const headers = new Headers(res.headers);
  // The body is kept decoded: its length and encoding are no longer those of the wire.
  headers.delete('content-encoding');
  headers.delete('content-length');
  headers.set(STORED_AT, new Date().toISOString());
  const cache = await caches.open(PAGES);
  const key = url.pathname + url.search;
  await cache.delete(key); // put again at the end: keys() lists the oldest first
  await cache.put(key, new Response(html, { status: 200, headers }));
  const keys = await cache.keys();
  for (const old of keys.slice(0, Math.max(0, keys.length - MAX_PAGES))) await cache.delete(old);
}

/** No network: the kept copy of the address, if it may be shown to whoever is here, or the offline page. */
async function offline(url: URL): Promise<Response> {
  const state = await readState();
  const copy = await (await caches.open(PAGES)).match(url.pathname + url.search);
  if (copy && mayServe(ownerOf(copy), state.owner)) {
    const headers = new Headers(copy.headers);
    return new Response(offlineCopy(await copy.text(), headers.get(STORED_AT) ?? '', config.texts), { status: 200, headers });
  }
  return new Response(offlinePage(state.lng, config.texts[state.lng], stylesheets, url.pathname + url.search), {
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
  });
}

async function navigate(e: FetchEvent, url: URL): Promise<Response> {
  let res: Response;
  try {
    res = (await e.preloadResponse) ?? (await fetch(e.request));
  } catch {
    return offline(url);
  }
  e.waitUntil(remember(url, res.clone()).catch(() => undefined));
  return res;
}

async function fromShell(req: Request): Promise<Response> {
  const hit = await (await caches.open(SHELL)).match(req, { ignoreVary: true });
  return hit ?? fetch(req);
}

sw.addEventListener('install', (e) => {
  e.waitUntil(caches.open(SHELL).then((c) => c.addAll(config.precache)));
});

sw.addEventListener('activate', (e) => {
  e.waitUntil(
    (async () => {
      await sw.registration.navigationPreload?.enable();
      for (const name of await caches.keys()) if (name.startsWith(SHELL_PREFIX) && name !== SHELL) await caches.delete(name);
      // A kept page whose stylesheet this version does not have would show unstyled: it goes.
      const pages = await caches.open(PAGES);
      for (const key of await pages.keys()) {
        const copy = await pages.match(key);
        const css = copy ? [...(await copy.text()).matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((m) => m[1] as string) : [];
        if (css.some((href) => !shellFiles.has(href))) await pages.delete(key);
      }
      await sw.clients.claim();
    })(),
  );
});

// A page that agrees (client/app-shell.ts: it is the newest version's) lets this version take over at once.
sw.addEventListener('message', (e) => {
  if (e.data === SW_TAKE_OVER) e.waitUntil(sw.skipWaiting());
});

sw.addEventListener('fetch', (e) => {
  const req = e.request;
  const url = new URL(req.url);
  if (url.origin !== sw.location.origin) return;
  if (isLogout(req.method, url)) return e.waitUntil(forgetPlayer());
  if (req.method !== 'GET') return;
  if (req.mode === 'navigate') return e.respondWith(navigate(e, url));
  if (shellFiles.has(url.pathname) && !url.search) e.respondWith(fromShell(req));
});

// A push (docs/rules/messages.md#6-push-notifications): shown at once, in the player's language as the server wrote it.
sw.addEventListener('push', (e) => {
  const read = (): unknown => {
    try {
      return e.data?.json() ?? null;
    } catch {
      return null;
    }
  };
  const n = pushNotice(read(), ICONS.any192, 'Bhagya');
  e.waitUntil(sw.registration.showNotification(n.title, n.options));
});

// A tap on it: the page it names, in a window of the site already open (focused and sent there) or a new one.
sw.addEventListener('notificationclick', (e) => {
  e.notification.close();
  const target = pushTarget(e.notification.data, sw.location.origin);
  e.waitUntil(
    (async () => {
      const open = await sw.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const same = open.find((c) => c.url === target) ?? open.find((c) => new URL(c.url).origin === sw.location.origin);
      if (same) {
        if (same.url !== target && same.navigate) await same.navigate(target).catch(() => undefined);
        await same.focus();
        return;
      }
      await sw.clients.openWindow(target);
    })(),
  );
});
