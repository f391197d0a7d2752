import { Link } from 'react-router';
import { useTranslation } from '../i18n.tsx';
import { toDigits } from '../../shared/dates.ts';
import { paths } from '../../shared/paths.ts';
import { Logo } from './logo.tsx';
import { useRootData } from '../root.tsx';

export function Footer() {
  const { t, i18n } = useTranslation();
  const { site } = useRootData();
  const d = (s: string | number) => toDigits(String(s), i18n.language);
  return (
    <footer className="footer">
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
        </div>
        <nav aria-label={t('footer.quickLinks')}>
          <h2>{t('footer.quickLinks')}</h2>
          <ul>
            <li>
              <Link to={paths.about}>{t('footer.about')}</Link>
            </li>
            <li>
              <Link to={paths.playResponsibly}>{t('footer.howToPlay')}</Link>
            </li>
            <li>
              <Link to={paths.faq}>{t('nav.faq')}</Link>
            </li>
            <li>
              <Link to={paths.allLotteries}>{t('footer.allLotteries')}</Link>
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
    </footer>
  );
}
