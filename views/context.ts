import { createContext, type RouterContextProvider } from 'react-router';
import type { ApiClient } from '../shared/api-client.ts';
import type { Language } from '../shared/i18n.ts';

/** What loaders and actions get from their side (server or browser): the API and the visitor's language. */
export const apiContext = createContext<ApiClient>();
export type LocaleInfo = {
  lng: Language;
  /** False until the visitor chose a language (the first-visit chooser shows). */
  chosen: boolean;
  /** A namespace of long texts (FAQ, legal pages) in the visitor's language. */
  namespace(ns: string): Promise<Record<string, unknown>>;
};
export const localeContext = createContext<LocaleInfo>();

/** The operator's support contacts (configuration), shown in the footer and on the contact page. */
export type SiteInfo = { supportEmail: string; supportPhone: string; supportAddress: string | null };
export const siteContext = createContext<SiteInfo>();

export const apiOf = (c: Readonly<RouterContextProvider>) => c.get(apiContext);
export const localeOf = (c: Readonly<RouterContextProvider>) => c.get(localeContext);
