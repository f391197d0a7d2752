import { useLocation } from 'react-router';
import { useTranslation } from '../i18n.tsx';
import { Dialog } from './dialog.tsx';

/** First visit: the visitor picks a language; each choice is a plain link, so it works without JavaScript. */
export function LanguageChooser() {
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
  const href = (lng: string) => {
    const p = new URLSearchParams(search);
    p.set('lng', lng);
    return `${pathname}?${p.toString()}`;
  };
  return (
    <Dialog titleId="lang-chooser-title" dismissHref={href(useTranslation().i18n.language)}>
      <h2 id="lang-chooser-title" className="dialog__title">
        {t('chooser.title')} · <span lang="bn">ভাষা বেছে নিন</span>
      </h2>
      <p>{t('chooser.text')}</p>
      <div className="chooser-options">
        <a className="chooser-option" href={href('bn')} lang="bn" hrefLang="bn">
          <span className="chooser-option__big">বাংলা</span>
          <span lang="en">Bengali</span>
        </a>
        <a className="chooser-option" href={href('en')} lang="en" hrefLang="en">
          <span className="chooser-option__big">English</span>
          <span lang="bn">ইংরেজি</span>
        </a>
      </div>
    </Dialog>
  );
}
