import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { useTranslation } from '../i18n.tsx';
import { PLACES, placeOf, placePath, type Place } from './places.ts';

const svg = (d: string): ReactNode => (
  <svg className="tab-bar__icon" viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
    <path fill="currentColor" d={d} />
  </svg>
);

/** Inline icons: a ticket with a star (play), a trophy (results), tickets (my tickets), a person (account). */
const ICONS: Record<Place, ReactNode> = {
  play: svg(
    'M4 6a2 2 0 0 1 2-2h12a2 2 0 0 1 2 2v3a3 3 0 0 0 0 6v3a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2v-3a3 3 0 0 0 0-6V6Zm8 2.2-1.1 2.3-2.5.3 1.8 1.7-.4 2.5 2.2-1.2 2.2 1.2-.4-2.5 1.8-1.7-2.5-.3L12 8.2Z',
  ),
  results: svg(
    'M7 3h10v3h4v4a5 5 0 0 1-5 5h-.3A6 6 0 0 1 13 17.9V20h4v2H7v-2h4v-2.1A6 6 0 0 1 8.3 15H8a5 5 0 0 1-5-5V6h4V3Zm0 5H5v2a3 3 0 0 0 2 2.8V8Zm10 0v4.8A3 3 0 0 0 19 10V8h-2Z',
  ),
  tickets: svg('M3 7h14v3a2 2 0 0 0 0 4v3H3v-3a2 2 0 0 0 0-4V7Zm4 2v6h2V9H7Zm12-4v12h-1V6H6V5h13Z'),
  account: svg('M12 12a4.5 4.5 0 1 0 0-9 4.5 4.5 0 0 0 0 9Zm-8 9c0-4 3.6-7 8-7s8 3 8 7v1H4v-1Z'),
};

const LABEL: Record<Place, string> = { play: 'nav.play', results: 'nav.results', tickets: 'nav.myTickets', account: 'nav.account' };

/** A place's label key in the common namespace (the tab bar and the desktop header say the same). */
export const placeLabel = (place: Place): string => LABEL[place];

/**
 * The player's tab bar at the bottom of a phone's screen (docs/rules/pages.md#10-finding-your-way): four plain links,
 * server-rendered, the current one marked with aria-current="page" and a bar above its icon. Not on staff pages: the
 * back office has its own bar (views/admin/shell.tsx), and views/root.tsx leaves this one out there.
 */
export function TabBar({ signedIn }: { signedIn: boolean }) {
  const { t } = useTranslation();
  const here = placeOf(useLocation().pathname);
  return (
    <nav className="tab-bar" aria-label={t('nav.places')}>
      <ul className="tab-bar__list">
        {PLACES.map((place) => (
          <li key={place}>
            <Link
              to={placePath(place, signedIn)}
              className={place === here ? 'tab-bar__link is-current' : 'tab-bar__link'}
              aria-current={place === here ? 'page' : undefined}
            >
              {ICONS[place]}
              <span className="tab-bar__label">{t(LABEL[place])}</span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
