import { Link } from 'react-router';
import { adminPaths } from '../../shared/paths.ts';
import { Head } from '../components/head.tsx';
import { useTranslation } from '../i18n.tsx';

/** A back-office address whose page is not built yet (docs/rules/pages.md#9-back-office): says so, inside the shell. */
export function Component() {
  const { t } = useTranslation('admin');
  return (
    <section className="admin-page">
      <Head title={t('common:title', { page: t('title') })} description={t('placeholder.text')} />
      <h1>{t('title')}</h1>
      <p>{t('placeholder.text')}</p>
      <Link className="btn btn-primary" to={adminPaths.dashboard}>
        {t('nav.dashboard')}
      </Link>
    </section>
  );
}
