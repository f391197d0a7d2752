import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider, type StaticHandlerContext } from 'react-router';
import type { Resources } from '../../shared/translate.ts';
import type { Language } from '../../shared/i18n.ts';
import { loadResources } from '../../server/i18n.ts';
import { footerOnce } from '../../server/ssr/footer.tsx';
import { Footer, MadeFooter } from '../../views/components/footer.tsx';
import { I18nProvider } from '../../views/i18n.tsx';

const resources = loadResources();
const site = { supportEmail: 'help@example.com', supportPhone: '+880 1700-000000', supportAddress: null };

/** A page as the server renders it: the footer inside the data router, with or without the footer made once. */
async function page(lng: Language, made: ReturnType<typeof footerOnce> | null): Promise<string> {
  const routes = [
    { id: 'root', path: '/', loader: () => ({ user: null, csrf: '', lng, langChosen: true, site }), Component: () => <Footer /> },
  ];
  const handler = createStaticHandler(routes);
  const context = (await handler.query(new Request('http://localhost/'))) as StaticHandlerContext;
  const tree = <StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} hydrate={false} />;
  return renderToString(
    <I18nProvider language={lng} resources={resources[lng] as Resources}>
      {made ? <MadeFooter.Provider value={made}>{tree}</MadeFooter.Provider> : tree}
    </I18nProvider>,
  );
}

describe('the footer made once per language (docs/decisions/013-logged-in-pages.md)', () => {
  test.each(['en', 'bn'] as const)('is the very markup the page would render in place (%s), so the browser hydrates it', async (lng) => {
    const made = footerOnce(resources, site);
    const html = await page(lng, made);
    expect(html).toBe(await page(lng, null));
    expect(html).toContain('href="mailto:help@example.com"');
    expect(await page(lng, made)).toBe(html); // the second page takes the stored footer
  });

  test('another site configuration is rendered in place, not taken from the store', () => {
    const made = footerOnce(resources, site);
    expect(made('en', { ...site })).toBeUndefined();
    expect(made('en', site)).toContain('help@example.com');
  });
});
