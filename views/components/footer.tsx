import { createContext, useContext } from 'react';
import { Link } from 'react-router';
import { useTranslation } from '../i18n.tsx';
import { toDigits } from '../../shared/dates.ts';
import type { Language } from '../../shared/i18n.ts';
import { paths } from '../../shared/paths.ts';
import type { SiteInfo } from '../context.ts';
import { InstallButton } from './install-button.tsx';
import { Logo } from './logo.tsx';
import { useRootData } from '../root.tsx';

/**
 * The footer is the same for every visitor of a language: the server renders its inside once per language and year
 * and hands it over here (server/ssr/footer.tsx); the browser, which has no such function, renders it and hydrates
 * the very same markup (docs/decisions/013-logged-in-pages.md). Undefined: render it here.
 */
export const MadeFooter = createContext<((lng: Language, site: SiteInfo) => string | undefined) | null>(null);

export function Footer() {
  const { i18n } = useTranslation();
  const { site } = useRootData();
  const made = useContext(MadeFooter)?.(i18n.language, site);
  if (made !== undefined) return <footer className="footer" dangerouslySetInnerHTML={{ __html: made }} />;
  return (
    <footer className="footer">
      <FooterContent site={site} />
    </footer>
  );
}

/** The footer's inside: the brand, the link lists and the support contacts. */
export function FooterContent({ site }: { site: SiteInfo }) {
  const { t, i18n } = useTranslation();
  const d = (s: string | number) => toDigits(String(s), i18n.language);
  return (
    <>
      <div className="container footer__grid">
        <div className="footer__about">
          <Link to={paths.home} className="brand brand--light">
            <Logo size={32} />
            <span className="brand__name">{t('brand')}</span>
          </Link>
          <p>{t('footer.tagline')}</p>
          <p className="footer__notice">
            <strong className="age-badge">{d('18+')}</strong> {t('footer.ageNotice')}
          </p>
          <InstallButton />
        </div>
        <nav aria-label={t('footer.quickLinks')}>
          <h2>{t('footer.quickLinks')}</h2>
          <ul>
            <li>
              <Link to={paths.about}>{t('footer.about')}</Link>
            </li>
            <li>
              <Link to={paths.howToPlay}>{t('footer.howToPlay')}</Link>
            </li>
            <li>
              <Link to={paths.faq}>{t('nav.faq')}</Link>
            </li>
            <li>
              <Link to={paths.allLotteries}>{t('footer.allLotteries')}</Link>
            </li>
            <li>
              <Link to={paths.resultsArchive}>{t('footer.results')}</Link>
            </li>
          </ul>
        </nav>
        <nav aria-label={t('footer.legal')}>
          <h2>{t('footer.legal')}</h2>
          <ul>
            <li>
              <Link to={paths.terms}>{t('footer.terms')}</Link>
            </li>
            <li>
              <Link to={paths.notice}>{t('footer.privacy')}</Link>
            </li>
            <li>
              <Link to={paths.playResponsibly}>{t('nav.playResponsibly')}</Link>
            </li>
          </ul>
        </nav>
        <div>
          <h2>{t('footer.contact')}</h2>
          <ul>
            <li>{t('footer.liveSupport')}</li>
            <li>
              <a href={`mailto:${site.supportEmail}`}>{site.supportEmail}</a>
            </li>
            <li>
              <a href={`tel:${site.supportPhone.replace(/[^+0-9]/g, '')}`}>{t('footer.phone', { phone: d(site.supportPhone) })}</a>
            </li>
            <li>
              <Link to={paths.contact}>{t('footer.contactForm')}</Link>
            </li>
          </ul>
        </div>
      </div>
      <div className="container footer__bottom">
        <p>{t('footer.restricted')}</p>
        <p>{t('footer.copyright', { year: d(new Date().getFullYear()) })}</p>
      </div>
    </>
  );
}
