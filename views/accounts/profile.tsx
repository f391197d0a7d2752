import type { ReactNode } from 'react';
import { data, Link, redirect, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { api as contract } from '../../shared/api/contract.ts';
import { useTranslation } from '../i18n.tsx';
import type { UserProfile } from '../../shared/api-types.ts';
import { toDigits } from '../../shared/dates.ts';
import { paths, withQuery } from '../../shared/paths.ts';
import { apiOf } from '../context.ts';
import { userOf } from '../guards.ts';
import { PageHead } from '../components/page-head.tsx';
import { Head } from '../components/head.tsx';
import { DateTime } from '../components/nowrap.tsx';

type ProfileData = { profile: UserProfile; error: null } | { profile: null; error: 'notFound' | 'load' };

/** The player's own profile: the id comes from the session, the API checks it is his. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const toLogin = () => redirect(withQuery(paths.login, { from: url.pathname + url.search }));
  const r = await apiOf(context).call(contract.getUser, { params: { id: String(userOf(context).user_id) } });
  if (r.ok) return data<ProfileData>({ profile: r.data, error: null });
  if (r.status === 401) throw toLogin(); // the session ended between the two calls
  return data<ProfileData>({ profile: null, error: r.status === 404 ? 'notFound' : 'load' }, { status: r.status === 404 ? 404 : 502 });
}

export function Component() {
  const { t, i18n } = useTranslation();
  const lng = i18n.language;
  const res = useLoaderData<typeof loader>();
  const title = t('pages.profile.title');
  const head = <PageHead title={title} lead={t('pages.profile.subtitle')} />;
  if (!res.profile) {
    return (
      <>
        <Head title={t('title', { page: title })} description={t('pages.profile.subtitle')} />
        {head}
        <div className="container narrow">
          <div className="alert alert--error" role="alert">
            {t(res.error === 'notFound' ? 'pages.profile.notFound' : 'pages.profile.loadError')}
          </div>
          {res.error === 'load' ? (
            <a className="btn btn-ghost btn-sm" href={paths.profile}>
              {t('pages.profile.retry')}
            </a>
          ) : null}
        </div>
      </>
    );
  }
  const p = res.profile;
  const joined = <DateTime value={p.date_joined} lng={lng} invalid={t('errors.invalidDate')} />;
  const missing = <span className="muted">{t('pages.profile.notProvided')}</span>;
  const rows: [string, ReactNode][] = [
    ['email', p.email || missing],
    ['phone', p.phone ? toDigits(p.phone, lng) : missing],
    ['location', p.location || missing],
    ['joined', joined],
  ];
  return (
    <>
      <Head title={t('title', { page: title })} description={t('pages.profile.subtitle')} />
      {head}
      <div className="container narrow">
        <section className="profile card" aria-labelledby="profile-name">
          <div className="profile__head">
            {p.picture_url ? (
              <img className="profile__avatar" src={`/bff${p.picture_url}`} alt="" width={72} height={72} />
            ) : (
              <span className="profile__avatar" aria-hidden="true">
                {p.name.trim().slice(0, 1).toUpperCase() || '?'}
              </span>
            )}
            <h2 id="profile-name">
              {p.name} {p.is_staff ? <span className="badge badge--gold">{t('pages.profile.staff')}</span> : null}
            </h2>
          </div>
          <h3 className="visually-hidden">{t('pages.profile.details')}</h3>
          <dl className="profile__list">
            {rows.map(([k, v]) => (
              <div key={k}>
                <dt>{t(`pages.profile.${k}`)}</dt>
                <dd>{v}</dd>
              </div>
            ))}
          </dl>
        </section>
        <p className="profile__note">
          {t('pages.profile.editSoon')} <Link to={paths.contact}>{t('pages.profile.contactLink')}</Link>
        </p>
      </div>
    </>
  );
}
