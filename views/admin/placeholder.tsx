import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { useTranslation } from '../i18n.tsx';
import { paths } from '../../shared/paths.ts';
import { userOf } from '../guards.ts';

/** Staff only (the `staff` group of views/routes.tsx); the API enforces every permission itself. */
export function loader({ request, context }: LoaderFunctionArgs) {
  return { name: userOf(context).name, welcome: new URL(request.url).searchParams.get('welcome') === '1' };
}

export function Component() {
  const { t } = useTranslation();
  const { name, welcome } = useLoaderData<typeof loader>();
  return (
    <section className="container narrow page-message">
      <title>{t('title', { page: t('admin.title') })}</title>
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
