import { Link, redirect, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { useTranslation } from '../i18n.tsx';
import { paths, withQuery } from '../../shared/paths.ts';
import { apiOf } from '../context.ts';

/** Staff only: the guard is here for the page; the API enforces every permission itself. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await apiOf(context).session();
  const url = new URL(request.url);
  if (!user) throw redirect(withQuery(paths.login, { from: url.pathname + url.search }));
  if (!user.is_staff) throw redirect(paths.login);
  return { name: user.name, welcome: url.searchParams.get('welcome') === '1' };
}

export function Component() {
  const { t } = useTranslation();
  const { name, welcome } = useLoaderData<typeof loader>();
  return (
    <section className="container narrow page-message">
      <title>{t('title', { page: t('admin.title') })}</title>
      <h1>{t('admin.title')}</h1>
      {welcome ? <p className="muted">{t('admin.redirecting')}</p> : null}
      <p><strong>{name}</strong></p>
      <p>{t('admin.comingText')}</p>
      <Link className="btn btn-primary" to={paths.home}>{t('admin.home')}</Link>
    </section>
  );
}
