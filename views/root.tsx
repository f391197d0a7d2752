import { Outlet, isRouteErrorResponse, useRouteError, useRouteLoaderData, type LoaderFunctionArgs } from 'react-router';
import { useTranslation } from './i18n.tsx';
import type { SessionUser } from '../shared/api-types.ts';
import type { Language } from '../shared/i18n.ts';
import { paths } from '../shared/paths.ts';
import { apiOf, localeOf, siteContext, type SiteInfo } from './context.ts';
import { Footer } from './components/footer.tsx';
import { Head } from './components/head.tsx';
import { LanguageChooser } from './components/language-chooser.tsx';
import { Toasts } from './components/toast.tsx';
import { TopBar } from './components/top-bar.tsx';

export type RootData = { user: SessionUser | null; csrf: string; lng: Language; langChosen: boolean; site: SiteInfo };

export async function rootLoader({ context }: LoaderFunctionArgs): Promise<RootData> {
  const { user, csrf } = await apiOf(context).session();
  const { lng, chosen } = localeOf(context);
  return { user, csrf, lng, langChosen: chosen, site: context.get(siteContext) };
}

export function useRootData(): RootData {
  const d = useRouteLoaderData('root') as RootData | undefined;
  return d ?? { user: null, csrf: '', lng: 'en', langChosen: true, site: { supportEmail: '', supportPhone: '', supportAddress: null } };
}

export function Root() {
  const { user, lng, langChosen } = useRootData();
  const { t } = useTranslation();
  return (
    <>
      <a className="skip-link" href="#main">
        {t('nav.skip')}
      </a>
      <TopBar user={user} lng={lng} />
      <main id="main" className="main">
        <Outlet />
      </main>
      <Footer />
      <Toasts />
      {langChosen ? null : <LanguageChooser />}
    </>
  );
}

export function RootErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation();
  const { user, lng } = useRootData();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return (
    <>
      <TopBar user={user} lng={lng} />
      <main id="main" className="main">
        <section className="container narrow page-message">
          <Head title={`${status} · ${t('brand')}`} description={status === 404 ? t('errors.notFoundText') : t('errors.genericText')} />
          <h1>{status === 404 ? t('errors.notFoundTitle') : t('errors.genericTitle')}</h1>
          <p>{status === 404 ? t('errors.notFoundText') : t('errors.genericText')}</p>
          <a className="btn btn-primary" href={paths.home}>
            {t('errors.backHome')}
          </a>
        </section>
      </main>
      <Footer />
    </>
  );
}
