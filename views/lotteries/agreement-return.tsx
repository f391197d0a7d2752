import { data, Link, redirect, redirectDocument, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { errorText } from '../../shared/api-types.ts';
import { api as contract } from '../../shared/api/contract.ts';
import { paths, withQuery } from '../../shared/paths.ts';
import { AgreementCallbackBody } from '../../shared/payments/agreements.ts';
import { apiOf } from '../context.ts';
import { pageStatus } from '../components/action.ts';
import { Alert } from '../components/form.tsx';
import { Head } from '../components/head.tsx';
import { useTranslation } from '../i18n.tsx';

type Shown = { outcome: 'active' | 'failed' | 'checking' | 'unknown'; wallet: string | null; problem: string | null };

/**
 * /payment/bkash/agreement: where bKash sends the player back after approving "Remember my bKash account", with
 * `paymentID` and `status` (docs/rules/payments.md#11-remembered-bkash-agreements). The agreement is made through the
 * API; when he was paying a purchase, its payment starts at once with it (bKash's page then asks his PIN only), or,
 * when none was made, his payment page says so and he pays as before. Without a purchase, the page says what became
 * of it. Anyone else (not logged in, the callback arriving without cookies) is told only that it is being checked.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const parsed = AgreementCallbackBody.safeParse({
    paymentID: url.searchParams.get('paymentID') ?? '',
    status: url.searchParams.get('status') ?? '',
  });
  const shown = (s: Shown, status = 200) => data(s, { status });
  if (!parsed.success) return shown({ outcome: 'unknown', wallet: null, problem: null }, 400);
  const api = apiOf(context);
  const r = await api.call(contract.bkashAgreementCallback, { body: parsed.data });
  if (!r.ok) {
    if (r.error.code === 'not_found' || r.status === 400) return shown({ outcome: 'unknown', wallet: null, problem: null }, r.status);
    return shown({ outcome: 'unknown', wallet: null, problem: errorText(r.error, '') || null }, pageStatus(r.status));
  }
  const { outcome, transaction_id: tx, wallet } = r.data;
  if (tx !== null && outcome === 'active') {
    const c = await api.call(contract.startCheckout, { params: { id: String(tx) } });
    if (c.ok) throw redirectDocument(c.data.bkash_url, 303);
    throw redirect(withQuery(paths.payment(tx), { checkout: 'unavailable' }), 303);
  }
  if (tx !== null && outcome === 'failed') throw redirect(withQuery(paths.payment(tx), { agreement: 'failed' }), 303);
  return shown({ outcome: outcome === 'active' || outcome === 'failed' ? outcome : 'checking', wallet, problem: null });
}

export function Component() {
  const { t } = useTranslation('lottery');
  const { outcome, wallet, problem } = useLoaderData<typeof loader>();
  const title = t('agreementReturn.title');
  return (
    <section className="section">
      <div className="container narrow payment">
        <Head title={t('common:title', { page: title })} description={t('payment.checkoutLead')} />
        <h1>{title}</h1>
        {outcome === 'active' ? (
          <Alert kind="success">{t('agreementReturn.remembered', { wallet: wallet ?? '' })}</Alert>
        ) : outcome === 'failed' ? (
          <Alert kind="error">{t('agreementReturn.failed')}</Alert>
        ) : outcome === 'checking' ? (
          <Alert kind="info">{t('agreementReturn.checking')}</Alert>
        ) : (
          <Alert kind="error">{problem ? t('common:errors.error', { message: problem }) : t('payment.callbackNotFound')}</Alert>
        )}
        <p>
          <Link to={paths.profileBkash}>{t('profile:bkash.open')}</Link>
        </p>
      </div>
    </section>
  );
}
