import type { ReactNode } from 'react';
import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { errorText } from '../../shared/api-types.ts';
import { api as contract } from '../../shared/api/contract.ts';
import { formatNumber } from '../../shared/dates.ts';
import { lotteryName } from '../../shared/lotteries/names.ts';
import { adminPaths, paths, withQuery } from '../../shared/paths.ts';
import { apiOf } from '../context.ts';
import { Alert } from '../components/form.tsx';
import { Head } from '../components/head.tsx';
import { Amount, DateTime } from '../components/nowrap.tsx';
import { useTranslation } from '../i18n.tsx';
import { BkashBalanceCards } from './bkash-balance.tsx';
import { AdminPageHead, AdminTable } from './list.tsx';

/** /admin/dashboard: the figures of GET /api/v1/admin/dashboard/, from the database (docs/rules/pages.md#9-back-office). */
export async function loader({ context }: LoaderFunctionArgs) {
  const api = apiOf(context);
  const [r, b] = await Promise.all([api.call(contract.dashboard), api.call(contract.bkashBalance)]);
  const balance = b.ok ? b.data : null;
  return r.ok ? { d: r.data, balance, error: null } : { d: null, balance, error: errorText(r.error, '') || null };
}

export function Component() {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('admin');
  const { d, balance, error } = useLoaderData<typeof loader>();
  const invalid = t('common:errors.invalidDate');
  const title = t('dashboard.title');
  return (
    <section className="admin-page">
      <Head title={t('common:title', { page: title })} description={t('dashboard.lead')} />
      <AdminPageHead title={title} lead={t('dashboard.lead')} />
      {!d ? (
        <Alert kind="error">
          {t('common:errors.error', { message: error ?? t('common.loadFailed') })} {t('common.retryHint')}
        </Alert>
      ) : (
        <>
          <ul className="admin-stats">
            <Stat label={t('dashboard.totalUsers')} value={formatNumber(d.total_users, lng)} />
            <Stat label={t('dashboard.activeLotteries')} value={formatNumber(d.active_lotteries, lng)} />
            <Stat label={t('dashboard.totalRevenue')} value={<Amount value={d.total_revenue} lng={lng} />} />
            <Stat label={t('dashboard.ticketsSold')} value={formatNumber(d.tickets_sold, lng)} />
          </ul>
          <ul className="admin-stats admin-stats--waiting">
            <Stat
              label={t('dashboard.pendingTransactions')}
              value={formatNumber(d.pending_transactions, lng)}
              to={withQuery(adminPaths.transactions, { status: 'pending' })}
            />
            <Stat
              label={t('dashboard.pendingTransfers')}
              value={formatNumber(d.pending_transfers, lng)}
              to={withQuery(adminPaths.prizeClaims, { status: 'payment_info_submitted' })}
            />
            <Stat
              label={t('dashboard.paymentsWaiting')}
              value={formatNumber(d.payments_waiting, lng)}
              to={withQuery(adminPaths.transactions, { status: 'pending' })}
            />
            <Stat
              label={t('dashboard.statementToDecide')}
              value={formatNumber(d.statement_to_decide, lng)}
              to={adminPaths.bkashStatements}
            />
          </ul>
          {balance ? <BkashBalanceCards b={balance} lng={lng} /> : null}
          <ul className="admin-stats">
            <Stat label={t('dashboard.playersWithLimit')} value={formatNumber(d.players_with_limit, lng)} />
            <Stat label={t('dashboard.playersSelfExcluded')} value={formatNumber(d.players_self_excluded, lng)} />
          </ul>

          <nav className="admin-quick" aria-label={t('dashboard.quickActions')}>
            <h2>{t('dashboard.quickActions')}</h2>
            <div className="admin-quick__links">
              <Link className="btn btn-primary" to={adminPaths.createLottery}>
                {t('nav.createLottery')}
              </Link>
              <Link className="btn btn-ghost" to={adminPaths.lotteries}>
                {t('nav.lotteries')}
              </Link>
              <Link className="btn btn-ghost" to={adminPaths.transactions}>
                {t('nav.transactions')}
              </Link>
              <Link className="btn btn-ghost" to={adminPaths.prizeClaims}>
                {t('nav.prizeClaims')}
              </Link>
              <Link className="btn btn-ghost" to={paths.home}>
                {t('dashboard.publicSite')}
              </Link>
            </div>
          </nav>

          <section className="admin-recent" aria-labelledby="recent-lotteries">
            <header className="admin-recent__head">
              <h2 id="recent-lotteries">{t('dashboard.recentLotteries')}</h2>
              <Link to={adminPaths.lotteries}>{t('dashboard.viewAll')}</Link>
            </header>
            {d.recent_lotteries.length === 0 ? (
              <p className="muted">{t('lotteries.empty')}</p>
            ) : (
              <AdminTable
                labelledBy="recent-lotteries"
                columns={[t('dashboard.lottery'), t('lotteries.end'), t('lotteries.prize'), t('lotteries.sold'), t('dashboard.state')]}
              >
                {d.recent_lotteries.map((l) => (
                  <tr key={l.id}>
                    <td>
                      <Link to={adminPaths.editLottery(l.id)}>{lotteryName(l, lng)}</Link>
                    </td>
                    <td>
                      <DateTime value={l.end_date} lng={lng} invalid={invalid} />
                    </td>
                    <td>
                      <Amount value={l.total_prize} lng={lng} />
                    </td>
                    <td>{formatNumber(l.tickets_sold, lng)}</td>
                    <td>
                      {l.is_result_published
                        ? t('lotteries.resultPublished')
                        : l.published
                          ? t('lotteries.active')
                          : t('lotteries.inactive')}
                    </td>
                  </tr>
                ))}
              </AdminTable>
            )}
          </section>

          <section className="admin-recent" aria-labelledby="recent-transactions">
            <header className="admin-recent__head">
              <h2 id="recent-transactions">{t('dashboard.recentTransactions')}</h2>
              <Link to={adminPaths.transactions}>{t('dashboard.viewAll')}</Link>
            </header>
            {d.recent_transactions.length === 0 ? (
              <p className="muted">{t('dashboard.noTransactions')}</p>
            ) : (
              <AdminTable
                labelledBy="recent-transactions"
                columns={[t('dashboard.player'), t('dashboard.lottery'), t('dashboard.amount'), t('dashboard.status'), t('dashboard.date')]}
              >
                {d.recent_transactions.map((x) => (
                  <tr key={x.id}>
                    <td>{x.user.name}</td>
                    <td>{lotteryName(x.lottery, lng)}</td>
                    <td>
                      <Amount value={x.amount} lng={lng} />
                    </td>
                    <td>
                      <span className={`badge badge--${x.status}`}>{t(`dashboard.statuses.${x.status}`)}</span>
                    </td>
                    <td>
                      <DateTime value={x.created_at} lng={lng} withTime invalid={invalid} />
                    </td>
                  </tr>
                ))}
              </AdminTable>
            )}
          </section>
        </>
      )}
    </section>
  );
}

function Stat({ label, value, to }: { label: string; value: ReactNode; to?: string }) {
  return (
    <li className="card admin-stat">
      <span className="admin-stat__label">{label}</span>
      <span className="admin-stat__value">{to ? <Link to={to}>{value}</Link> : value}</span>
    </li>
  );
}
