import { data, Link, type ActionFunctionArgs } from 'react-router';
import { errorText, fieldErrors } from '../../shared/api-types.ts';
import { api as contract } from '../../shared/api/contract.ts';
import type { Lng } from '../../shared/dates.ts';
import { ActivateBody } from '../../shared/generated-tickets/schemas.ts';
import { paths } from '../../shared/paths.ts';
import { apiOf } from '../context.ts';
import { Head } from '../components/head.tsx';
import { key } from '../components/messages.ts';
import { parseForm } from '../components/parse-form.ts';
import { useTranslation } from '../i18n.tsx';
import { ActivateForm, type ActivateResult } from './activate-form.tsx';

/**
 * Activates a generated ticket (docs/rules/tickets.md#7-activating-a-generated-ticket): the plain page's form and the
 * dialog on My Lotteries both post here, the fields named as the API names them.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const v = parseForm(form, ActivateBody, { secret: ['secret_number'] });
  if (!v.ok) return data<ActivateResult>({ errors: v.errors, values: v.values }, { status: 400 });
  const r = await apiOf(context).call(contract.activateTicket, { body: v.data });
  if (r.ok) {
    const { lottery_name, status, ticket, transaction_id } = r.data;
    return { activated: { lottery_name, status, ticket, transaction_id } } satisfies ActivateResult;
  }
  const fe = fieldErrors(r.error);
  const errors: Record<string, string> = {};
  for (const f of ['ticket_number', 'secret_number'] as const) if (fe[f]) errors[f] = fe[f];
  return data<ActivateResult>(
    Object.keys(errors).length
      ? { errors, values: v.values }
      : { formError: errorText(r.error, key('activate:form.failed')), values: v.values },
    { status: r.status >= 500 ? 502 : r.status },
  );
}

/** /my-lotteries/activate (player group): the activation form as a page of its own, for browsers without JavaScript. */
export function Component() {
  const {
    t,
    i18n: { language },
  } = useTranslation('activate');
  const title = t('form.title');
  return (
    <section className="section">
      <div className="container narrow activate-page">
        <Head title={t('common:title', { page: title })} description={t('form.lead')} />
        <p className="back-link">
          <Link to={paths.myLotteries}>{t('form.back')}</Link>
        </p>
        <h1>{title}</h1>
        <p>{t('form.lead')}</p>
        <div className="card">
          <ActivateForm lng={language as Lng} />
        </div>
      </div>
    </section>
  );
}
