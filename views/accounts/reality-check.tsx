import { data, Link, redirect, useActionData, useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router';
import { api as contract } from '../../shared/api/contract.ts';
import { errorText } from '../../shared/api-types.ts';
import { paths, safeFrom, withQuery } from '../../shared/paths.ts';
import { apiOf } from '../context.ts';
import { pageStatus } from '../components/action.ts';
import { Alert } from '../components/form.tsx';
import { Head } from '../components/head.tsx';
import { Amount, DateTime } from '../components/nowrap.tsx';
import { PageHead } from '../components/page-head.tsx';
import { RealityReminder, useRealityTexts, type RealityState } from '../components/reality-check.tsx';
import { useTranslation } from '../i18n.tsx';

/**
 * /reality-check (docs/rules/play-safe.md#7-reality-check): the session's time and spending, with the reminder's
 * choices while one is due; and where "Continue playing" posts from every page, without JavaScript too.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const r = await apiOf(context).call(contract.realityCheck);
  if (r.status === 401) throw redirect(withQuery(paths.login, { from: url.pathname + url.search }));
  const from = safeFrom(url.searchParams.get('from')) ?? paths.home;
  if (r.ok) return { reality: r.data, from, error: null };
  return data({ reality: null, from, error: errorText(r.error, '') || null }, { status: pageStatus(r.status) });
}

/**
 * "Continue playing": POST /api/v1/reality-check/ acknowledges the reminder, then back to the page it was shown on
 * (`from`, a path of this site; the home page otherwise). A refusal shows on this page.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const raw = form.get('from');
  const from = safeFrom(typeof raw === 'string' ? raw : null) ?? paths.home;
  const r = await apiOf(context).call(contract.acknowledgeRealityCheck);
  if (r.ok) return redirect(from, 303);
  if (r.status === 401) return redirect(withQuery(paths.login, { from }), 303);
  return data({ failed: errorText(r.error, '') || null }, { status: pageStatus(r.status) });
}

function Facts({ reality }: { reality: RealityState }) {
  const { t, i18n } = useTranslation('profile');
  const lng = i18n.language;
  const { played, tickets } = useRealityTexts(reality);
  const invalid = t('common:errors.invalidDate');
  return (
    <dl className="reality-check__facts">
      <dt>{t('reality.started')}</dt>
      <dd>
        <DateTime value={reality.session_started_at} lng={lng} withTime invalid={invalid} />
      </dd>
      <dt>{t('reality.played')}</dt>
      <dd>{played}</dd>
      <dt>{t('reality.bought')}</dt>
      <dd>
        {tickets}, <Amount value={reality.spent} lng={lng} />
      </dd>
      <dt>{t('reality.next')}</dt>
      <dd>{reality.due_at === null ? t('reality.off') : <DateTime value={reality.due_at} lng={lng} withTime invalid={invalid} />}</dd>
    </dl>
  );
}

export function Component() {
  const { t } = useTranslation('profile');
  const { reality, from, error } = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>();
  const title = t('reality.pageTitle');
  return (
    <>
      <Head title={t('common:title', { page: title })} description={t('reality.settingsLead')} />
      <PageHead title={title} lead={t('reality.settingsLead')} />
      <div className="container narrow play-safe">
        {posted ? <Alert kind="error">{posted.failed ?? t('reality.failed')}</Alert> : null}
        {!reality ? (
          <Alert kind="error">{error ?? t('reality.loadFailed')}</Alert>
        ) : (
          <>
            {reality.due ? (
              <section className="card reality-check__card" aria-labelledby="reality-page-title">
                <RealityReminder reality={reality} from={from} titleId="reality-page-title" />
              </section>
            ) : (
              <Alert kind="info">{t('reality.notDue')}</Alert>
            )}
            <section className="card" aria-labelledby="reality-facts-title">
              <h2 id="reality-facts-title">{t('reality.sessionTitle')}</h2>
              <Facts reality={reality} />
            </section>
          </>
        )}
        <p>
          <Link to={paths.profileLimits}>{t('reality.changeInterval')}</Link> · <Link to={from}>{t('reality.back')}</Link>
        </p>
      </div>
    </>
  );
}
