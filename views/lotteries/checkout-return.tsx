import { data, Link, redirect, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { errorText } from '../../shared/api-types.ts';
import { api as contract } from '../../shared/api/contract.ts';
import { paths } from '../../shared/paths.ts';
import { CallbackBody } from '../../shared/payments/schemas.ts';
import { apiOf } from '../context.ts';
import { pageStatus } from '../components/action.ts';
import { Alert } from '../components/form.tsx';
import { Head } from '../components/head.tsx';
import { useTranslation } from '../i18n.tsx';

/**
 * /payment/bkash/callback: where bKash sends the player back after its page, with `paymentID` and `status`
 * (docs/rules/payments.md#3-paying-with-bkash-checkout). The payment is settled through the API, then the
 * purchase's owner (logged in) goes to its payment page, which says what happened. Anyone else (not logged in, the
 * callback arriving without cookies, another player) is told only that the payment is being checked.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const parsed = CallbackBody.safeParse({
    paymentID: url.searchParams.get('paymentID') ?? '',
    status: url.searchParams.get('status') ?? '',
  });
  if (!parsed.success) return data({ problem: null, checking: false }, { status: 400 });
  const r = await apiOf(context).call(contract.bkashCallback, { body: parsed.data });
  if (r.ok && r.data.transaction_id !== null) throw redirect(paths.payment(r.data.transaction_id), 303);
  if (r.ok) return { problem: null, checking: true };
  // No such payment (payment_not_found answers `not_found`), or a paymentID that is not one: the same page.
  if (r.error.code === 'not_found' || r.status === 400) return data({ problem: null, checking: false }, { status: r.status });
  return data({ problem: errorText(r.error, '') || null, checking: false }, { status: pageStatus(r.status) });
}

export function Component() {
  const { t } = useTranslation('lottery');
  const { problem, checking } = useLoaderData<typeof loader>();
  const title = t('payment.checkoutTitle');
  return (
    <section className="section">
      <div className="container narrow payment">
        <Head title={t('common:title', { page: title })} description={t('payment.checkoutLead')} />
        <h1>{title}</h1>
        {checking ? (
          <Alert kind="info">{t('payment.callbackChecking')}</Alert>
        ) : (
          <Alert kind="error">{problem ? t('common:errors.error', { message: problem }) : t('payment.callbackNotFound')}</Alert>
        )}
        <p>
          <Link to={paths.myLotteries}>{t('payment.finish')}</Link>
        </p>
      </div>
    </section>
  );
}
