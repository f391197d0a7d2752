export const LANGUAGES = ['en', 'bn'] as const;
export type Language = (typeof LANGUAGES)[number];
/** A translator as both the pages' (shared/translate.ts) and the server's (i18next) can be called, for counted words. */
export type CountText = (key: string, opts: { count: number; n: string }) => string;
export const LANG_COOKIE = 'lang';
/** Namespaces every page's client needs; long texts ('content') are loaded by the pages that show them. */
export const CLIENT_NAMESPACES = ['common', 'home', 'lottery', 'auth', 'validation', 'profile', 'activate'] as const;
/** What the islands of the home page translate with (no forms of the account pages there). */
export const ISLAND_NAMESPACES = ['common', 'home', 'lottery'] as const;
/** The global the client texts' script sets (server/ssr/texts.ts) and the entries read. */
export const TEXTS_GLOBAL = '__bhTexts';
