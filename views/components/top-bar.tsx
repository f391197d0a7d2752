import { useEffect, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { useTranslation } from '../i18n.tsx';
import type { SessionUser } from '../../shared/api-types.ts';
import type { Language } from '../../shared/i18n.ts';
import { adminPaths, paths } from '../../shared/paths.ts';
import { Bell } from './bell.tsx';
import { placeOf, placePath, type Place } from './places.ts';
import { placeLabel } from './tab-bar.tsx';
import { LogoutForm } from './logout-form.tsx';
import { Logo } from './logo.tsx';

/**
 * Switching language reloads the page through the server, which keeps the choice in a cookie. The link is named by
 * what it shows, the other language's own name in that language (বাংলা, lang="bn"), as voice control users say it
 * (WCAG 2.5.3: an aria-label "Switch language to Bengali" hid the visible text); the title explains it on hover.
 */
export function LanguageSwitch({ lng }: { lng: Language }) {
  const { t } = useTranslation();
  const location = useLocation();
  const other: Language = lng === 'en' ? 'bn' : 'en';
  const params = new URLSearchParams(location.search);
  params.set('lng', other);
  return (
    <a className="lang-switch" href={`${location.pathname}?${params.toString()}`} hrefLang={other} title={t('nav.switchLanguage')}>
      <span lang={other}>{other === 'bn' ? 'বাংলা' : 'English'}</span>
    </a>
  );
}

export function TopBar({ user, lng, unread = null }: { user: SessionUser | null; lng: Language; unread?: number | null }) {
  const { t } = useTranslation();
  const [scrolled, setScrolled] = useState(false);
  const location = useLocation();
  // The mobile menu is open on the page where it was opened: navigating elsewhere closes it.
  const [menuOpenOn, setMenuOpenOn] = useState<string | null>(null);
  const menuOpen = menuOpenOn === location.pathname;
  const here = placeOf(location.pathname);

  useEffect(() => {
    const onScroll = () => setScrolled(window.scrollY > 20);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);

  return (
    <header className={`top-bar${scrolled ? ' is-scrolled' : ''}`}>
      <div className="container top-bar__inner">
        <Link to={paths.home} className="brand">
          <Logo />
          <span className="brand__name">{t('brand')}</span>
        </Link>
        {/* A logged-in user's bell stays in the bar on a phone, beside the menu (staff are players too). */}
        {user ? <Bell unread={unread} lng={lng} /> : null}
        {/* The <details> toggles the mobile menu without JavaScript (CSS: details[open] + nav); desktop shows the nav. */}
        <details
          className="menu"
          open={menuOpen}
          onToggle={(e) => setMenuOpenOn((e.currentTarget as HTMLDetailsElement).open ? location.pathname : null)}
        >
          <summary className="menu__toggle" aria-label={t('nav.menu')}>
            <span className="menu__bars" aria-hidden="true" />
          </summary>
        </details>
        <nav className="menu__panel" aria-label={t('nav.main')}>
          <ul className="nav-links">
            {/* The player's places (docs/rules/pages.md#10-finding-your-way): in the one-line bar of a desktop; on a
                narrower screen the tab bar at the bottom has them, so the menu leaves them out. */}
            {(user ? (['play', 'results', 'tickets'] as const) : (['play', 'results'] as const)).map((place: Place) => (
              <li key={place} className="nav-links__place">
                <Link
                  to={placePath(place, user !== null)}
                  className={place === here ? 'active' : undefined}
                  aria-current={place === here ? 'page' : undefined}
                >
                  {t(placeLabel(place))}
                </Link>
              </li>
            ))}
            <li>
              <NavLink to={paths.faq}>{t('nav.faq')}</NavLink>
            </li>
            <li className="nav-links__menu-only">
              <NavLink to={paths.howToPlay}>{t('nav.howToPlay')}</NavLink>
            </li>
            <li>
              <NavLink to={paths.playResponsibly}>{t('nav.playResponsibly')}</NavLink>
            </li>
            <li className="nav-links__menu-only">
              <NavLink to={paths.notice}>{t('nav.notice')}</NavLink>
            </li>
            {user?.is_staff ? (
              <li>
                <NavLink to={adminPaths.dashboard}>{t('nav.dashboard')}</NavLink>
              </li>
            ) : null}
          </ul>
          <div className="nav-actions">
            <LanguageSwitch lng={lng} />
            {user ? (
              <>
                {/* Account, the fourth place: the player's name leads to his profile. */}
                <Link
                  to={paths.profile}
                  className={here === 'account' ? 'nav-user is-current' : 'nav-user'}
                  aria-current={here === 'account' ? 'page' : undefined}
                  title={user.phone ?? ''}
                >
                  <span className="nav-user__avatar" aria-hidden="true">
                    {user.name.slice(0, 1).toUpperCase()}
                  </span>
                  <span className="nav-user__name">{user.name}</span>
                </Link>
                <LogoutForm className="btn btn-ghost btn-sm">{t('nav.logout')}</LogoutForm>
              </>
            ) : (
              <>
                <Link to={paths.login} className="btn btn-ghost btn-sm">
                  {t('nav.login')}
                </Link>
                <Link to={paths.register} className="btn btn-primary btn-sm">
                  {t('nav.register')}
                </Link>
              </>
            )}
          </div>
        </nav>
      </div>
    </header>
  );
}
