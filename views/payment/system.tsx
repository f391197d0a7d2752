import { data, Form, Link, redirect, useActionData, useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router';
import { api as contract } from '../../shared/api/contract.ts';
import { toDigits } from '../../shared/dates.ts';
import { v as V } from '../../shared/fields.ts';
import { IdentityForm } from '../../shared/identity/schemas.ts';
import { paths, safeFrom, withQuery } from '../../shared/paths.ts';
import { isPictureFile } from '../../shared/uploads/schemas.ts';
import { apiOf } from '../context.ts';
import { pageStatus, refused } from '../components/action.ts';
import { CsrfField } from '../components/csrf-field.tsx';
import { Alert, Field, SubmitButton, type FormResult } from '../components/form.tsx';
import { Head } from '../components/head.tsx';
import { key, msg } from '../components/messages.ts';
import { PageHead } from '../components/page-head.tsx';
import { parseForm } from '../components/parse-form.ts';
import { PaymentMethods } from '../components/payment-methods.tsx';
import { Notice } from '../components/toast.tsx';
import { useTranslation } from '../i18n.tsx';

const PHOTOS = ['nid_front', 'nid_back'] as const;

/**
 * /payment/system (player group): the identity details (docs/rules/accounts-and-codes.md#13-identity-details) once,
 * then the payment method. bKash leads to the real purchase flow: back to the ticket of `from`, else All Lotteries.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const from = safeFrom(url.searchParams.get('from'));
  const editing = url.searchParams.get('edit') === '1';
  const saved = url.searchParams.get('saved') === '1';
  const r = await apiOf(context).call(contract.myIdentity);
  // The page needs no more of the NID number than its last digits (the whole number stays out of the page's data).
  if (r.ok) {
    const { nid, ...rest } = r.data;
    return { identity: { ...rest, nidEnding: nid.slice(-4) }, from, editing, saved, loadFailed: false };
  }
  if (r.status === 401) throw redirect(withQuery(paths.login, { from: url.pathname + url.search }));
  // None given yet (identity_not_found): the empty form, not a failure.
  const none = r.error.code === 'not_found';
  return data({ identity: null, from, editing, saved: false, loadFailed: !none }, { status: none ? 200 : pageStatus(r.status) });
}

/** The form: NID number and phone parsed with the API's schema, both photos uploaded as NID photos, then saved. */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const v = parseForm(form, IdentityForm);
  const values = v.values;
  const errors: Record<string, string> = v.ok ? {} : { ...v.errors };
  const files: Partial<Record<(typeof PHOTOS)[number], File>> = {};
  for (const name of PHOTOS) {
    const f = form.get(name);
    if (!f || typeof f === 'string' || f.size === 0) errors[name] = key(V('identityIncomplete'));
    else if (!isPictureFile(f)) errors[name] = key(V('pictureInvalid'));
    else files[name] = f;
  }
  const from = safeFrom(typeof form.get('from') === 'string' ? (form.get('from') as string) : null);
  const fill = key(V('identityIncomplete'));
  if (!v.ok || Object.keys(errors).length) {
    const formError = Object.values(errors).includes(fill) ? fill : v.ok ? undefined : v.formError;
    return data<FormResult>({ errors, values, ...(formError ? { formError } : {}) }, { status: 400 });
  }
  const api = apiOf(context);
  const ids: Partial<Record<(typeof PHOTOS)[number], string>> = {};
  for (const name of PHOTOS) {
    const file = files[name];
    if (!file) continue;
    const up = await api.upload(contract.uploadNid, file);
    if (!up.ok)
      return data<FormResult>({ errors: { [name]: key('profile:identity.uploadFailed') }, values }, { status: pageStatus(up.status) });
    ids[name] = up.data.data.id;
  }
  const r = await api.call(contract.saveIdentity, {
    body: { nid: v.data.nid, phone: v.data.phone, nid_front: ids.nid_front ?? '', nid_back: ids.nid_back ?? '' },
  });
  if (r.ok) return redirect(withQuery(paths.paymentSystem, { saved: '1', from }), 303);
  return refused(r, { failed: 'profile:identity.failed', values });
}

export function Component() {
  const { t, i18n } = useTranslation('profile');
  const lng = i18n.language;
  const { identity, from, editing, saved, loadFailed } = useLoaderData<typeof loader>();
  const title = t('identity.title');
  return (
    <>
      <Head title={t('common:title', { page: title })} description={t('identity.lead')} />
      <PageHead title={title} lead={t('identity.lead')} />
      <div className="container narrow identity">
        {saved && !editing ? <Notice text={t('identity.saved')} /> : null}
        {loadFailed ? <Alert kind="error">{t('identity.loadFailed')}</Alert> : null}
        {!identity || editing ? (
          <IdentityFormCard from={from} />
        ) : (
          <>
            <section className="card identity__summary" aria-labelledby="identity-summary">
              <h2 id="identity-summary">{t('identity.summaryTitle')}</h2>
              <dl className="profile__list">
                <div>
                  <dt>{t('identity.nid')}</dt>
                  <dd>{t('identity.nidEnding', { digits: toDigits(identity.nidEnding, lng) })}</dd>
                </div>
                <div>
                  <dt>{t('identity.phone')}</dt>
                  <dd>{toDigits(identity.phone, lng)}</dd>
                </div>
              </dl>
              <div className="identity__photos">
                <img src={`/bff${identity.nid_front_url}`} alt={t('identity.frontAlt')} width={160} height={100} />
                <img src={`/bff${identity.nid_back_url}`} alt={t('identity.backAlt')} width={160} height={100} />
              </div>
              <p>
                <Link to={withQuery(paths.paymentSystem, { edit: '1', from })}>{t('identity.change')}</Link>
              </p>
            </section>
            <section className="card identity__method" aria-labelledby="identity-method">
              <h2 id="identity-method">{t('identity.methodTitle')}</h2>
              <p>{t('identity.methodLead')}</p>
              <Form method="get" action={paths.paymentDemo('bkash')} className="form">
                {from ? <input type="hidden" name="from" value={from} /> : null}
                <PaymentMethods />
                <button type="submit" className="btn btn-primary btn-block">
                  {t('identity.next')}
                </button>
              </Form>
            </section>
          </>
        )}
      </div>
    </>
  );
}

/** NID number, both photos (the camera on a phone, a file elsewhere) and phone: a plain multipart POST without JavaScript. */
function IdentityFormCard({ from }: { from: string | null }) {
  const { t } = useTranslation('profile');
  const result = useActionData<FormResult>();
  const e = result?.errors ?? {};
  const val = result?.values ?? {};
  return (
    <section className="card" aria-labelledby="identity-form">
      <h2 id="identity-form">{t('identity.formTitle')}</h2>
      {result?.formError ? <Alert kind="error">{msg(t, result.formError)}</Alert> : null}
      <Form method="post" encType="multipart/form-data" noValidate className="form">
        <CsrfField />
        {from ? <input type="hidden" name="from" value={from} /> : null}
        <Field
          label={t('identity.nid')}
          name="nid"
          inputMode="numeric"
          autoComplete="off"
          required
          defaultValue={val.nid}
          hint={t('identity.nidHint')}
          error={msg(t, e.nid)}
        />
        <Field
          label={t('identity.front')}
          name="nid_front"
          type="file"
          accept="image/*"
          capture="environment"
          required
          hint={t('identity.photoHint')}
          error={msg(t, e.nid_front)}
        />
        <Field
          label={t('identity.back')}
          name="nid_back"
          type="file"
          accept="image/*"
          capture="environment"
          required
          error={msg(t, e.nid_back)}
        />
        <Field
          label={t('identity.phone')}
          name="phone"
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          placeholder={t('identity.phonePlaceholder')}
          required
          defaultValue={val.phone}
          error={msg(t, e.phone)}
        />
        <SubmitButton>{t('identity.save')}</SubmitButton>
      </Form>
    </section>
  );
}
