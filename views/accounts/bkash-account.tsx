import { data, Form, Link, redirect, useActionData, useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router';
import { api as contract } from '../../shared/api/contract.ts';
import { errorText } from '../../shared/api-types.ts';
import { paths, withQuery } from '../../shared/paths.ts';
import { apiOf } from '../context.ts';
import { pageStatus, refused } from '../components/action.ts';
import { CsrfField } from '../components/csrf-field.tsx';
import { Alert, SubmitButton, type FormResult } from '../components/form.tsx';
import { msg } from '../components/messages.ts';
import { Head } from '../components/head.tsx';
import { DateTime, withElements } from '../components/nowrap.tsx';
import { PageHead } from '../components/page-head.tsx';
import { Notice } from '../components/toast.tsx';
import { useTranslation } from '../i18n.tsx';

/**
 * /profile/bkash: the player's remembered bKash account (docs/rules/payments.md#11-remembered-bkash-agreements) — the
 * wallet it pays from and since when, and the form that forgets it; or how to have one remembered.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const r = await apiOf(context).call(contract.myBkashAgreement);
  if (r.status === 401) throw redirect(withQuery(paths.login, { from: url.pathname }));
  const forgotten = url.searchParams.get('saved') === 'forgotten';
  if (r.ok) return { agreement: r.data, error: null as string | null, forgotten };
  return data({ agreement: null, error: errorText(r.error, '') || 'load', forgotten: false }, { status: pageStatus(r.status) });
}

/** "Forget this bKash account": cancelled at bKash, then here; back to the page saying so, or the refusal above the form. */
export async function action({ request, context }: ActionFunctionArgs) {
  await request.formData();
  const r = await apiOf(context).call(contract.cancelBkashAgreement);
  if (r.ok) return redirect(withQuery(paths.profileBkash, { saved: 'forgotten' }), 303);
  return refused(r, { fields: [], failed: 'profile:bkash.failed' });
}

export function Component() {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('profile');
  const { agreement, error, forgotten } = useLoaderData<typeof loader>();
  const result = useActionData<FormResult>();
  const title = t('bkash.title');
  return (
    <>
      <Head title={t('common:title', { page: title })} description={t('bkash.lead')} />
      <PageHead title={title} lead={t('bkash.lead')} />
      <div className="container narrow">
        {forgotten ? <Notice text={t('bkash.forgotten')} /> : null}
        {error ? (
          <Alert kind="error">{t('common:errors.error', { message: error === 'load' ? t('bkash.loadFailed') : error })}</Alert>
        ) : agreement ? (
          <section className="card profile-sessions" aria-labelledby="bkash-title">
            <h2 id="bkash-title">{t('bkash.rememberedTitle')}</h2>
            <p>
              {withElements((v) => t('bkash.remembered', v), {
                wallet: <strong className="nowrap">{agreement.wallet}</strong>,
                date: <DateTime value={agreement.since} lng={lng} withTime invalid={t('common:errors.invalidDate')} />,
              })}
            </p>
            <p className="profile__note">{t('bkash.how')}</p>
            {result?.formError ? <Alert kind="error">{msg(t, result.formError)}</Alert> : null}
            <Form method="post" className="profile__actions">
              <CsrfField />
              <SubmitButton className="btn btn-ghost">{t('bkash.forget')}</SubmitButton>
            </Form>
          </section>
        ) : (
          <section className="card profile-sessions" aria-labelledby="bkash-title">
            <h2 id="bkash-title">{t('bkash.noneTitle')}</h2>
            <p>{t('bkash.none')}</p>
          </section>
        )}
        <p>
          <Link to={paths.profile}>{t('play.back')}</Link>
        </p>
      </div>
    </>
  );
}
