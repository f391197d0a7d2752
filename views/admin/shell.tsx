import { useSyncExternalStore, type ReactNode } from 'react';
import { Link, NavLink, Outlet, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { adminPaths, paths } from '../../shared/paths.ts';
import { localeOf } from '../context.ts';
import { useHydrated } from '../components/use-hydrated.ts';
import { useTranslation, WithTexts } from '../i18n.tsx';

/** The back office's texts come with its layout: player pages never carry them (docs/rules/pages.md#9-back-office). */
export async function loader({ context }: LoaderFunctionArgs) {
  return { texts: await localeOf(context).namespace('admin') };
}

export function Component() {
  const { texts } = useLoaderData<typeof loader>();
  return (
    <WithTexts ns="admin" texts={texts}>
      <AdminLayout />
    </WithTexts>
  );
}

/**
 * `label` names the page in the sidebar; `short`, under its icon in a phone's bottom bar, fits 360 px in both languages.
 * `wide`: in the sidebar only (the phone's bar keeps two rows of five; the page is one tap away on another).
 */
type NavItem = { to: string; label: string; short: string; icon: ReactNode; end?: boolean; wide?: boolean };

const icon = (d: string) => (
  <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
    <path fill="currentColor" d={d} />
  </svg>
);

const NAV: readonly NavItem[] = [
  {
    to: adminPaths.dashboard,
    label: 'nav.dashboard',
    short: 'nav.short.dashboard',
    icon: icon('M3 13h8V3H3v10Zm0 8h8v-6H3v6Zm10 0h8V11h-8v10Zm0-18v6h8V3h-8Z'),
  },
  {
    to: adminPaths.lotteries,
    label: 'nav.lotteries',
    short: 'nav.short.lotteries',
    icon: icon(
      'M4 6a2 2 0 0 1 2-2h12a2 2 0 0 1 2 2v3a3 3 0 0 0 0 6v3a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2v-3a3 3 0 0 0 0-6V6Zm10 0v2h2V6h-2Zm0 5v2h2v-2h-2Zm0 5v2h2v-2h-2Z',
    ),
  },
  {
    to: adminPaths.games,
    label: 'nav.games',
    short: 'nav.short.games',
    icon: icon('M7 2h2v2h6V2h2v2h3v18H4V4h3V2ZM6 10v10h12V10H6Zm2 2h3v3H8v-3Z'),
  },
  {
    // On a phone "Create lottery" is the Lotteries page's own button.
    to: adminPaths.createLottery,
    label: 'nav.createLottery',
    short: 'nav.short.createLottery',
    icon: icon('M11 5h2v6h6v2h-6v6h-2v-6H5v-2h6V5Z'),
    end: true,
    wide: true,
  },
  {
    to: adminPaths.transactions,
    label: 'nav.transactions',
    short: 'nav.short.transactions',
    icon: icon('M3 6h18v12H3V6Zm2 2v2h14V8H5Zm0 5v3h6v-3H5Z'),
  },
  {
    to: adminPaths.bkashStatements,
    label: 'nav.bkashStatements',
    short: 'nav.short.bkashStatements',
    icon: icon('M6 2h9l5 5v15H6V2Zm8 1.5V8h4.5L14 3.5ZM8.5 15.5l1.4-1.4 1.6 1.6 3.6-3.6 1.4 1.4-5 5-3-3Z'),
  },
  {
    to: adminPaths.users,
    label: 'nav.users',
    short: 'nav.short.users',
    icon: icon(
      'M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8Zm-7 9c0-3.3 3.1-6 7-6s7 2.7 7 6v1H2v-1Zm15-9a3 3 0 1 0 0-6v6Zm1 3c2.4.5 4 2.3 4 4.5V21h-4v-1c0-2.3-1-4.4-2.7-5.9L18 14Z',
    ),
  },
  {
    to: adminPaths.prizeClaims,
    label: 'nav.prizeClaims',
    short: 'nav.short.prizeClaims',
    icon: icon(
      'M7 3h10v3h4v4a5 5 0 0 1-5 5h-.3A6 6 0 0 1 13 17.9V20h4v2H7v-2h4v-2.1A6 6 0 0 1 8.3 15H8a5 5 0 0 1-5-5V6h4V3Zm0 5H5v2a3 3 0 0 0 2 2.8V8Zm10 0v4.8A3 3 0 0 0 19 10V8h-2Z',
    ),
  },
  {
    to: adminPaths.generatedTickets,
    label: 'nav.generatedTickets',
    short: 'nav.short.generatedTickets',
    icon: icon(
      'M4 4h7v7H4V4Zm2 2v3h3V6H6Zm7-2h7v7h-7V4Zm2 2v3h3V6h-3ZM4 13h7v7H4v-7Zm2 2v3h3v-3H6Zm7-2h3v3h-3v-3Zm4 0h3v3h-3v-3Zm-4 4h3v3h-3v-3Zm4 0h3v3h-3v-3Z',
    ),
  },
  {
    // On a phone the bar keeps its two rows: the sends are looked into at a desk.
    to: adminPaths.deliveries,
    label: 'nav.deliveries',
    short: 'nav.short.deliveries',
    icon: icon('M3 5h18v12H7l-4 4V5Zm2 2v9.2L6.2 15H19V7H5Zm2 2h10v2H7V9Zm0 3h7v2H7v-2Z'),
    wide: true,
  },
  {
    to: adminPaths.auditLog,
    label: 'nav.auditLog',
    short: 'nav.short.auditLog',
    icon: icon('M6 2h9l5 5v15H6V2Zm8 1.5V8h4.5L14 3.5ZM8 12v2h8v-2H8Zm0 4v2h8v-2H8Z'),
  },
];

const COLLAPSED_KEY = 'bhagya:admin-nav-collapsed';

/**
 * The back office's frame: a sidebar on a desktop that folds to its icons (with JavaScript; the choice is kept in
 * this browser), a bar at the bottom of a phone's screen, and the way back to the player's home page.
 */
/** Whether the sidebar is folded, kept in this browser (false on the server and while hydrating). */
const folded = {
  listeners: new Set<() => void>(),
  subscribe(l: () => void) {
    folded.listeners.add(l);
    return () => void folded.listeners.delete(l);
  },
  get(): boolean {
    try {
      return window.localStorage.getItem(COLLAPSED_KEY) === '1';
    } catch {
      return false; // storage refused: the sidebar stays open
    }
  },
  set(v: boolean) {
    try {
      window.localStorage.setItem(COLLAPSED_KEY, v ? '1' : '0');
    } catch {
      /* not kept */
    }
    folded.listeners.forEach((l) => l());
  },
};

function AdminLayout() {
  const { t } = useTranslation('admin');
  const hydrated = useHydrated();
  const collapsed = useSyncExternalStore(folded.subscribe, folded.get, () => false);
  const toggle = () => folded.set(!collapsed);
  return (
    <div className={`admin${collapsed ? ' admin--collapsed' : ''}`}>
      <nav className="admin-nav" id="admin-nav" aria-label={t('nav.label')}>
        {hydrated ? (
          <button type="button" className="admin-nav__toggle" aria-expanded={!collapsed} aria-controls="admin-nav" onClick={toggle}>
            {icon(collapsed ? 'M9 6l6 6-6 6-1.4-1.4 4.6-4.6-4.6-4.6L9 6Z' : 'M15 6l1.4 1.4-4.6 4.6 4.6 4.6L15 18l-6-6 6-6Z')}
            <span className="admin-nav__label">{collapsed ? t('nav.expand') : t('nav.collapse')}</span>
          </button>
        ) : null}
        <ul className="admin-nav__list">
          {NAV.map((item) => (
            <li key={item.to} className={item.wide ? 'admin-nav__wide-item' : undefined}>
              <NavLink to={item.to} end={item.end} className="admin-nav__link" title={collapsed ? t(item.label) : undefined}>
                {item.icon}
                <span className="admin-nav__label">{t(item.label)}</span>
                <span className="admin-nav__short">{t(item.short)}</span>
              </NavLink>
            </li>
          ))}
          <li className="admin-nav__home-item">
            <Link to={paths.home} className="admin-nav__link admin-nav__home">
              {icon('M12 3l9 8h-3v9h-5v-6h-2v6H6v-9H3l9-8Z')}
              <span className="admin-nav__label">{t('nav.home')}</span>
              <span className="admin-nav__short">{t('nav.short.home')}</span>
            </Link>
          </li>
        </ul>
      </nav>
      <div className="admin-main">
        <Outlet />
      </div>
    </div>
  );
}
