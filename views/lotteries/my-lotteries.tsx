import { Link } from 'react-router';
import { useTranslation } from '../i18n.tsx';
import { paths } from '../../shared/paths.ts';
import { PageHead } from '../components/page-head.tsx';
import { Head } from '../components/head.tsx';

/**
 * The player's tickets. The ticket list API is not there yet, so the page shows its frame and an honest
 * empty state, never sample tickets.
 */
export function loader() {
  return null;
}

export function Component() {
  const { t } = useTranslation();
  const title = t('pages.myLotteries.title');
  return (
    <>
      <Head title={t('title', { page: title })} description={t('pages.myLotteries.subtitle')} />
      <PageHead title={title} lead={t('pages.myLotteries.subtitle')} />
      <div className="container narrow">
        <section className="empty empty--card card" aria-labelledby="no-tickets">
          <TicketIcon />
          <h2 id="no-tickets">{t('pages.myLotteries.emptyTitle')}</h2>
          <p>{t('pages.myLotteries.emptyText')}</p>
          <div className="empty__actions">
            <Link to={paths.allLotteries} className="btn btn-primary">
              {t('pages.myLotteries.pickNumbers')}
            </Link>
            <Link to={paths.playResponsibly} className="btn btn-ghost">
              {t('pages.myLotteries.howToPlay')}
            </Link>
          </div>
        </section>
      </div>
    </>
  );
}

const TicketIcon = () => (
  <svg className="empty__icon" viewBox="0 0 48 48" width="56" height="56" aria-hidden="true" focusable="false">
    <path
      fill="currentColor"
      fillRule="evenodd"
      d="M6 12a4 4 0 0 1 4-4h28a4 4 0 0 1 4 4v6a6 6 0 0 0 0 12v6a4 4 0 0 1-4 4H10a4 4 0 0 1-4-4v-6a6 6 0 0 0 0-12v-6Zm24 1v4h3v-4h-3Zm0 9v4h3v-4h-3Zm0 9v4h3v-4h-3Z"
    />
  </svg>
);
