/**
 * The installable app (docs/rules/app.md): what the server and the service worker (client/sw.ts) agree on.
 * No imports of Node or the DOM: the server, the browser entries and the worker all read this file.
 */
import type { Language } from './i18n.ts';

/** Where the worker is served (the root: its scope is the whole site). */
export const SW_PATH = '/sw.js';

/** A page's web manifest, one per language (the document links the one of its language). */
export const manifestPath = (lng: Language) => `/manifest.${lng}.webmanifest`;

/** The app's icons (public/icons, made by scripts/make-icons.ts). */
export const ICONS = {
  any192: '/icons/icon-192.png',
  any512: '/icons/icon-512.png',
  maskable512: '/icons/icon-maskable-512.png',
  apple: '/icons/apple-touch-icon.png',
} as const;

/** The site's green (the top bar, the theme colour of the browser's own bar) and the page background. */
export const THEME_COLOUR = '#0b6e4f';
export const BACKGROUND_COLOUR = '#f6f8f7';

/**
 * Response headers the server puts on a page the worker may keep for offline use (docs/rules/app.md#2-what-is-kept):
 * `public` (anyone's page: the home page, the lottery lists, the results) or `player` (My Lotteries of a logged-in
 * player). A page without it is never kept.
 */
export const OFFLINE_COPY_HEADER = 'x-offline-copy';
export type OfflineCopy = 'public' | 'player';
/**
 * On every page of a logged-in player: a keyed hash of his id (no id, no cookie). The worker keeps a player's copies
 * only while the pages it sees carry the same value, and deletes them as soon as another (or none) comes.
 */
export const OFFLINE_OWNER_HEADER = 'x-offline-owner';

/** What the server writes at the top of /sw.js (server/pwa/service-worker.ts) for the worker to read. */
export type SwConfig = {
  /** A hash of the worker's code and of every file below: the name of this version's caches. */
  version: string;
  /** Same-origin files fetched at install: the shell's scripts and stylesheet, the client texts, fonts, icons. */
  precache: string[];
  /** The offline texts in each language (locales/<lng>/app.json `offline`). */
  texts: Record<Language, OfflineTexts>;
};

export type OfflineTexts = {
  /** "Offline — last updated {{time}}" */
  banner: string;
  title: string;
  text: string;
  retry: string;
  home: string;
};

/** The global the config sets in the worker's scope. */
export const SW_CONFIG_GLOBAL = '__bhSw';

/** The message a page sends a waiting worker when it agrees to be taken over (docs/rules/app.md#4-updates). */
export const SW_TAKE_OVER = 'take-over';
