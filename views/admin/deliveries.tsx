import { useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { api as contract } from '../../shared/api/contract.ts';
import { DELIVERY_STATES, type DeliveryState } from '../../shared/notify/schemas.ts';
import { adminPaths } from '../../shared/paths.ts';
import { apiOf } from '../context.ts';
import { Head } from '../components/head.tsx';
import { DateTime } from '../components/nowrap.tsx';
import { useTranslation } from '../i18n.tsx';
import * as list from './list.tsx';
import { toDigits } from '../../shared/dates.ts';
import { MESSAGE_KINDS } from '../../shared/messages/kinds.ts';
import type { TFunction } from '../i18n.tsx';

/**
 * What a send was for, in words (the back office's own texts, which its pages carry: a player's namespace is not in
 * the browser here): a player's message by its kind, a code or a notice by its own; anything else as stored.
 */
const PURPOSES = [...MESSAGE_KINDS, 'account', 'reset', 'claim', 'winner', 'account_changed', 'signup_attempt'] as const;
function purposeText(t: TFunction, purpose: string): string {
  return (PURPOSES as readonly string[]).includes(purpose) ? t(`deliveries.purposes.${purpose}`) : purpose;
}

export const PER_PAGE = 50;
type Filters = { state: DeliveryState | null; to: string };

const listHref = (f: Filters, page: number): string => list.adminHref(adminPaths.deliveries, { state: f.state, to: f.to }, page);

/**
 * /admin/deliveries: every SMS and e-mail sent, newest first, with its gateway and state — sent, delivered, failed,
 * unknown — and why a gateway did not take it; never its text (docs/rules/messages.md#7-sms-gateways).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const f: Filters = {
    state: list.oneOf(DELIVERY_STATES, url.searchParams.get('state')),
    to: (url.searchParams.get('to') ?? '').trim().slice(0, 254),
  };
  const { page, limit, offset } = list.listPlace(url, PER_PAGE);
  const r = await apiOf(context).call(contract.deliveries, {
    query: { state: f.state ?? undefined, to: f.to || undefined, limit, offset },
  });
  return { f, ...list.listData(r, page) };
}

export function Component() {
  const { t, i18n } = useTranslation('admin');
  const lng = i18n.language;
  const d = useLoaderData<typeof loader>();
  return (
    <section className="admin-page">
      <Head title={t('common:title', { page: t('deliveries.title') })} description={t('deliveries.lead')} />
      <list.AdminPageHead title={t('deliveries.title')} lead={t('deliveries.lead')} />
      <list.AdminFilters>
        <list.FilterSelect
          id="deliveries-state"
          name="state"
          label={t('deliveries.state')}
          value={d.f.state ?? ''}
          any={t('deliveries.allStates')}
          options={DELIVERY_STATES.map((s) => ({ value: s, label: t(`deliveries.states.${s}`) }))}
        />
        <list.FilterInput id="deliveries-to" name="to" label={t('deliveries.to')} defaultValue={d.f.to} maxLength={254} />
      </list.AdminFilters>
      <list.AdminResults d={d} perPage={PER_PAGE} href={(p) => listHref(d.f, p)} empty={t('deliveries.empty')}>
        {(items) => (
          <list.AdminTable
            label={t('deliveries.title')}
            columns={[
              t('deliveries.when'),
              t('deliveries.channel'),
              t('deliveries.to'),
              t('deliveries.purpose'),
              t('deliveries.gateway'),
              t('deliveries.state'),
              t('deliveries.stateAt'),
              t('deliveries.why'),
            ]}
          >
            {items.map((s) => (
              <tr key={s.id}>
                <td>
                  <DateTime value={s.created_at} lng={lng} withTime invalid={t('common:errors.invalidDate')} />
                </td>
                <td>{t(`deliveries.channels.${s.channel}`)}</td>
                <td className="nowrap">{s.channel === 'sms' ? toDigits(s.to, lng) : s.to}</td>
                <td>{purposeText(t, s.purpose)}</td>
                <td>{s.gateway ?? '—'}</td>
                <td>{t(`deliveries.states.${s.state}`)}</td>
                <td>{s.state_at ? <DateTime value={s.state_at} lng={lng} withTime invalid={t('common:errors.invalidDate')} /> : '—'}</td>
                <td>{s.error ?? '—'}</td>
              </tr>
            ))}
          </list.AdminTable>
        )}
      </list.AdminResults>
    </section>
  );
}
