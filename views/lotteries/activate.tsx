import { Link } from 'react-router';
import { api as contract } from '../../shared/api/contract.ts';
import { ActivateBody } from '../../shared/generated-tickets/schemas.ts';
import { paths } from '../../shared/paths.ts';
import { action as formAction } from '../components/action.ts';
import { Head } from '../components/head.tsx';
import { useTranslation } from '../i18n.tsx';
import { ActivateForm, type ActivateResult } from './activate-form.tsx';
import { useIsStaff } from './is-staff.ts';
import { StaffNoPlay } from './staff-no-play.tsx';

/**
 * Activates a generated ticket (docs/rules/tickets.md#7-activating-a-generated-ticket): the plain page's form and the
 * dialog on My Lotteries both post here, the fields named as the API names them.
 */
export const action = formAction({
  schema: ActivateBody,
  secret: ['secret_number'],
  call: (api, body) => api.call(contract.activateTicket, { body }),
  fields: ['ticket_number', 'secret_number'],
  failed: 'activate:form.failed',
  done: ({ lottery_name, status, ticket, transaction_id }) =>
    ({ activated: { lottery_name, status, ticket, transaction_id } }) satisfies ActivateResult,
});

/** /my-lotteries/activate (player group): the activation form as a page of its own, for browsers without JavaScript. */
export function Component() {
  const {
    t,
    i18n: { language },
  } = useTranslation('activate');
  const title = t('form.title');
  const staff = useIsStaff();
  return (
    <section className="section">
      <div className="container narrow activate-page">
        <Head title={t('common:title', { page: title })} description={t('form.lead')} />
        <p className="back-link">
          <Link to={paths.myLotteries}>{t('form.back')}</Link>
        </p>
        <h1>{title}</h1>
        <p>{t('form.lead')}</p>
        {staff ? (
          <StaffNoPlay />
        ) : (
          <div className="card">
            <ActivateForm lng={language} />
          </div>
        )}
      </div>
    </section>
  );
}
