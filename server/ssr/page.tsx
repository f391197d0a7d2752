import type { Resource } from 'i18next';
import type { ReactElement } from 'react';
import {
  createStaticRouter,
  isRouteErrorResponse,
  UNSAFE_ErrorResponseImpl as ErrorResponse,
  StaticRouterProvider,
  type RouteObject,
  type StaticHandler,
  type StaticHandlerContext,
} from 'react-router';
import type { Language } from '../../shared/i18n.ts';
import type { Resources } from '../../shared/translate.ts';
import { MadeFooter } from '../../views/components/footer.tsx';
import { Document, safeJson, type SerializedError } from '../../views/document.tsx';
import type { SiteInfo } from '../../views/context.ts';
import { I18nProvider } from '../../views/i18n.tsx';
import type { RouteHandle } from '../../views/routes.tsx';
import { pageAssets, type Manifest } from './assets.ts';
import type { ClientTexts } from './texts.ts';

/** Route errors cross to the browser as plain JSON; client/entry.tsx revives them. */
export function serializeErrors(errors: StaticHandlerContext['errors']): Record<string, SerializedError> | null {
  if (!errors) return null;
  const out: Record<string, SerializedError> = {};
  for (const [id, e] of Object.entries(errors)) {
    out[id] = isRouteErrorResponse(e)
      ? { __type: 'RouteErrorResponse', status: e.status, statusText: e.statusText, data: e.data }
      : { __type: 'Error', message: 'Unexpected error' }; // internals never reach the page
  }
  return out;
}

export type PageDeps = {
  /** The handler's own data routes (an error page renders from them). */
  dataRoutes: StaticHandler['dataRoutes'];
  resources: Resource;
  manifest: () => Manifest;
  texts: ClientTexts;
  madeFooter: (lng: Language, site: SiteInfo) => string | undefined;
};

/**
 * The whole document of the matched routes, once their loaders have run: the app, its hydration data, the client's
 * texts and entry. A page rendered for sharing has no nonce: its CSP allows its inline scripts by hash
 * (page-cache.ts).
 */
export function pageDocument(d: PageDeps, context: StaticHandlerContext, lng: Language, nonce: string | undefined): ReactElement {
  // No route tree to convert again on every request: the static router renders the matched routes (which the
  // handler has loaded) by id through its manifest, and with an empty one takes the handler's routes themselves.
  // An error page (a 404 among them) needs the whole tree: with the empty manifest the browser did not find the
  // error boundary the server rendered and fell back to React Router's own error screen (inline styles, CSP-blocked).
  const router = createStaticRouter(context.errors ? d.dataRoutes : NO_ROUTES, context);
  const handles = context.matches.map((m) => m.route.handle as RouteHandle | undefined);
  const islandsPage = handles.at(-1)?.islands === true;
  const chunks = handles.map((h) => h?.chunk).filter((c): c is string => !!c);
  const hydration = islandsPage
    ? null
    : { loaderData: context.loaderData, actionData: context.actionData, errors: serializeErrors(context.errors) };
  // The client's texts come in a script of their own (texts.ts), not in every page.
  const dataJson = `{"hydration":${safeJson(hydration)},"i18n":{"lng":"${lng}"}}`;
  return (
    <Document
      lng={lng}
      assets={pageAssets(d.manifest(), chunks, islandsPage)}
      dataJson={dataJson}
      texts={d.texts.src(lng, islandsPage)}
      nonce={nonce}
    >
      <I18nProvider language={lng} resources={d.resources[lng] as Resources}>
        <MadeFooter.Provider value={d.madeFooter}>
          <StaticRouterProvider router={router} context={context} hydrate={false} nonce={nonce} />
        </MadeFooter.Provider>
      </I18nProvider>
    </Document>
  );
}

/**
 * The page of a request that could not read all it needs — one of its API calls found the database out of reach, even
 * if the page's own data came (docs/rules/operations.md#5-when-the-database-goes-away): not shown half, with a piece
 * silently missing, but as the 503 error page of the root route that says so (`detail`, in the visitor's language),
 * with the root's own data (the top bar) when it has it.
 */
export function unavailablePage(context: StaticHandlerContext, detail: string): StaticHandlerContext {
  const root = context.matches[0]?.route.id;
  if (!root) return context;
  return {
    ...context,
    statusCode: 503,
    loaderData: root in context.loaderData ? { [root]: context.loaderData[root] } : {},
    actionData: null,
    errors: { [root]: new ErrorResponse(503, 'Service Unavailable', { detail }) },
  };
}

/** The static router's own copy of the route tree (docs/decisions/013-logged-in-pages.md). */
const NO_ROUTES: RouteObject[] = [];
