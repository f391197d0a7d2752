import type { Resource } from 'i18next';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import type { Language } from '../../shared/i18n.ts';
import type { Resources } from '../../shared/translate.ts';
import { FooterContent } from '../../views/components/footer.tsx';
import type { SiteInfo } from '../../views/context.ts';
import { I18nProvider } from '../../views/i18n.tsx';

/**
 * The footer's inside, the same for every visitor of a language, rendered once per language and year
 * (views/components/footer.tsx): outside the page's router, its links point where they do inside it. A fragment
 * given to the page as HTML, so a string render (docs/decisions/013-logged-in-pages.md).
 */
export function footerOnce(resources: Resource, site: SiteInfo): (lng: Language, of: SiteInfo) => string | undefined {
  const made = new Map<string, string>();
  return (lng, of) => {
    if (of !== site) return undefined;
    const key = `${lng}|${new Date().getFullYear()}`;
    let html = made.get(key);
    if (html === undefined) {
      html = renderToString(
        <I18nProvider language={lng} resources={resources[lng] as Resources}>
          <StaticRouter location="/">
            <FooterContent site={site} />
          </StaticRouter>
        </I18nProvider>,
      );
      made.set(key, html);
    }
    return html;
  };
}
