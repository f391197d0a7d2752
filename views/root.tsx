import { Outlet, isRouteErrorResponse, useLocation, useRouteError, useRouteLoaderData, type LoaderFunctionArgs } from 'react-router';
import { useTranslation } from './i18n.tsx';
import type { SessionUser } from '../shared/api-types.ts';
import type { Language } from '../shared/i18n.ts';
import { isStaffPath, paths } from '../shared/paths.ts';
import { apiOf, localeOf, siteContext, type SiteInfo } from './context.ts';
import { Footer } from './components/footer.tsx';
import { Head } from './components/head.tsx';
import { LanguageChooser } from './components/language-chooser.tsx';
import { RealityCheck, topBarFor, type RealityState } from './components/reality-check.tsx';
import { TabBar } from './components/tab-bar.tsx';
import { Toasts } from './components/toast.tsx';
import { TopBar } from './components/top-bar.tsx';

export type RootData = {
  user: SessionUser | null;
  csrf: string;
  lng: Language;
  langChosen: boolean;
  site: SiteInfo;
  /** The reality check of a logged-in user's session (docs/rules/play-safe.md#7-reality-check); null otherwise. */
  reality: RealityState | null;
  /** How many of a logged-in user's messages are unread, for the top bar's bell (docs/rules/messages.md); null otherwise. */
  unread: number | null;
};

export async function rootLoader({ request, context }: LoaderFunctionArgs): Promise<RootData> {
  const api = apiOf(context);
  const { user, csrf } = await api.session();
  const { lng, chosen } = localeOf(context);
  // A visitor's pages ask for neither: they stay the same for every visitor (the page cache shares them).
  const { reality, unread } = user ? await topBarFor(api, request) : { reality: null, unread: null };
  return { user, csrf, lng, langChosen: chosen, site: context.get(siteContext), reality, unread };
}

export function useRootData(): RootData {
  const d = useRouteLoaderData('root') as RootData | undefined;
  return (
    d ?? {
      user: null,
      csrf: '',
      lng: 'en',
      langChosen: true,
      site: { supportEmail: '', supportPhone: '', supportAddress: null },
      reality: null,
      unread: null,
    }
  );
}

export function Root() {
  const { user, lng, langChosen, unread } = useRootData();
  const { t } = useTranslation();
  // The back office has its own shell (views/admin/shell.tsx): neither the player's tab bar nor his footer.
  const staffPage = isStaffPath(useLocation().pathname);
  return (
    <>
      <a className="skip-link" href="#main">
        {t('nav.skip')}
      </a>
      <TopBar user={user} lng={lng} unread={unread} />
      <main id="main" className="main">
        <RealityCheck />
        <Outlet />
      </main>
      {staffPage ? null : <TabBar signedIn={user !== null} />}
      {staffPage ? null : <Footer />}
      <Toasts />
      {langChosen ? null : <LanguageChooser />}
    </>
  );
}

export function RootErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation();
  const { user, lng, unread } = useRootData();
  const staffPage = isStaffPath(useLocation().pathname);
  const status = isRouteErrorResponse(error) ? error.status : 500;
  // The database out of reach (server/ssr/page.tsx unavailablePage): the server's sentence, in the page's language.
  const detail: unknown = isRouteErrorResponse(error) && status === 503 ? (error.data as { detail?: unknown } | null)?.detail : undefined;
  const text = typeof detail === 'string' ? detail : status === 404 ? t('errors.notFoundText') : t('errors.genericText');
  return (
    <>
      <TopBar user={user} lng={lng} unread={unread} />
      <main id="main" className="main">
        <section className="container narrow page-message">
          <Head title={`${status} · ${t('brand')}`} description={text} />
          <h1>{status === 404 ? t('errors.notFoundTitle') : status === 503 ? t('errors.unavailableTitle') : t('errors.genericTitle')}</h1>
          <p>{text}</p>
          <a className="btn btn-primary" href={paths.home}>
            {t('errors.backHome')}
          </a>
        </section>
      </main>
      {staffPage ? null : <TabBar signedIn={user !== null} />}
      {staffPage ? null : <Footer />}
    </>
  );
}
