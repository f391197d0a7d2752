import { hydrateRoot } from 'react-dom/client';
import { I18nProvider } from '../views/i18n.tsx';
import type { Resources } from '../shared/translate.ts';
import { createBrowserRouter, matchRoutes, RouterContextProvider, UNSAFE_ErrorResponseImpl as ErrorResponseImpl } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { LANG_COOKIE, type Language } from '../shared/i18n.ts';
import { apiContext, localeContext, siteContext, type SiteInfo } from '../views/context.ts';
import { DATA_ELEMENT_ID, type SerializedError } from '../views/document.tsx';
import { routes } from '../views/routes.tsx';
import { startAppShell } from './app-shell.ts';
import { hydrationMark } from './hydrated.tsx';
import { bffApi, setCsrf } from './bff-api.ts';
import { pageTexts } from './texts.ts';

type PageData = {
  hydration: {
    loaderData: Record<string, unknown>;
    actionData: Record<string, unknown> | null;
    errors: Record<string, SerializedError> | null;
  };
  i18n: { lng: Language };
};

const el = document.getElementById(DATA_ELEMENT_ID);
const page = JSON.parse(el?.textContent ?? '{}') as PageData;
const lng = page.i18n.lng;
setCsrf((page.hydration.loaderData.root as { csrf?: string } | undefined)?.csrf ?? '');

const namespaces = new Map<string, Promise<Record<string, unknown>>>();

function revive(errors: PageData['hydration']['errors']) {
  if (!errors) return null;
  return Object.fromEntries(
    Object.entries(errors).map(([id, e]) => [
      id,
      e.__type === 'RouteErrorResponse' ? new ErrorResponseImpl(e.status, e.statusText, e.data) : new Error(e.message),
    ]),
  );
}

const MarkHydrated = hydrationMark(1);

async function main(resources: Resources) {
  // Route modules of the first page load before hydration, so the markup matches what the server sent.
  const lazy = matchRoutes(routes, window.location)?.filter((m) => m.route.lazy) ?? [];
  await Promise.all(
    lazy.map(async (m) => {
      const mod = await (m.route.lazy as () => Promise<Record<string, unknown>>)();
      Object.assign(m.route, { ...mod, lazy: undefined });
    }),
  );

  const router = createBrowserRouter(routes, {
    hydrationData: { loaderData: page.hydration.loaderData, actionData: page.hydration.actionData, errors: revive(page.hydration.errors) },
    getContext: () => {
      const ctx = new RouterContextProvider();
      ctx.set(apiContext, bffApi);
      ctx.set(siteContext, (page.hydration.loaderData.root as { site: SiteInfo }).site);
      ctx.set(localeContext, {
        lng,
        chosen: document.cookie.split('; ').some((c) => c.startsWith(`${LANG_COOKIE}=`)),
        namespace(ns) {
          let p = namespaces.get(ns);
          if (!p) {
            p = fetch(`/locales/${lng}/${ns}.json`).then((r) => r.json() as Promise<Record<string, unknown>>);
            namespaces.set(ns, p);
          }
          return p;
        },
      });
      return ctx;
    },
  });

  hydrateRoot(
    document.getElementById('root') as HTMLElement,
    <I18nProvider language={lng} resources={resources}>
      <MarkHydrated>
        <RouterProvider router={router} />
      </MarkHydrated>
    </I18nProvider>,
  );
}

startAppShell();
const resources = pageTexts();
if (resources) void main(resources);
