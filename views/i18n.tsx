import { createContext, useContext, useMemo, type ReactNode } from 'react';
import type { Language } from '../shared/i18n.ts';
import { createTranslator, type Resources, type Translate } from '../shared/translate.ts';

type I18nValue = { language: Language; resources: Resources };
const I18nContext = createContext<I18nValue>({ language: 'en', resources: {} });

export function I18nProvider({ language, resources, children }: I18nValue & { children: ReactNode }) {
  const value = useMemo(() => ({ language, resources }), [language, resources]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export type TFunction = Translate;

/** Like react-i18next's hook: `t` for a default namespace, and the language. */
export function useTranslation(ns = 'common'): { t: Translate; i18n: { language: Language } } {
  const { language, resources } = useContext(I18nContext);
  return useMemo(() => ({ t: createTranslator(language, resources, ns), i18n: { language } }), [language, resources, ns]);
}

/**
 * Adds a namespace's texts for the part of the page below it: the back office's texts come with its layout's
 * loader (views/admin/shell.tsx), so that player pages never carry them.
 */
export function WithTexts({ ns, texts, children }: { ns: string; texts: Record<string, unknown>; children: ReactNode }) {
  const { language, resources } = useContext(I18nContext);
  const merged = useMemo(() => ({ ...resources, [ns]: texts }) as Resources, [resources, ns, texts]);
  return (
    <I18nProvider language={language} resources={merged}>
      {children}
    </I18nProvider>
  );
}
