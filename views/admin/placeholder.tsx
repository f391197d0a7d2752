import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { useTranslation } from '../i18n.tsx';
import { paths } from '../../shared/paths.ts';
import { userOf } from '../guards.ts';
import { Head } from '../components/head.tsx';

/** Staff only (the `staff` group of views/routes.tsx); the API enforces every permission itself. */
export function loader({ request, context }: LoaderFunctionArgs) {
  return { name: userOf(context).name, welcome: new URL(request.url).searchParams.get('welcome') === '1' };
}

export function Component() {
  const { t } = useTranslation();
  const { name, welcome } = useLoaderData<typeof loader>();
  return (
    <section className="container narrow page-message">
      <Head title={t('title', { page: t('admin.title') })} description={t('admin.comingText')} />
      <h1>{t('admin.title')}</h1>
      {welcome ? <p className="muted">{t('admin.redirecting')}</p> : null}
      <p>
        <strong>{name}</strong>
      </p>
      <p>{t('admin.comingText')}</p>
      <Link className="btn btn-primary" to={paths.home}>
        {t('admin.home')}
      </Link>
    </section>
  );
}
