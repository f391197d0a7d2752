/** Winners proposed by hand on the draw page, and who decided (docs/rules/lotteries-and-sales.md#9-the-draw). */
import { Form } from 'react-router';
import type { Language } from '../../../shared/i18n.ts';
import { CsrfField } from '../../components/csrf-field.tsx';
import { Alert, SubmitButton } from '../../components/form.tsx';
import { msg } from '../../components/messages.ts';
import { DateTime } from '../../components/nowrap.tsx';
import { useTranslation } from '../../i18n.tsx';
import type { Proposal, Result } from './page.ts';

/**
 * Winners proposed by hand, waiting for a second staff member (docs/rules/lotteries-and-sales.md#9-the-draw): who
 * proposed them, when and why; Approve and Reject for another staff member, Withdraw for the author. Approve only once
 * sales are closed (`salesOpen`: when they end, while they are open; a proposal an older server took before the close).
 */
export function PendingProposal({
  p,
  mine,
  salesOpen,
  action,
  result,
}: {
  p: Proposal;
  mine: boolean;
  salesOpen: string | null;
  action: string;
  result: Result | undefined;
}) {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('admin');
  return (
    <div className="draw-section card draw-proposal">
      <h2 id="draw-proposal">{t('draw.proposal.title')}</h2>
      <p className="draw-unverifiable-note">{t('draw.proposal.pendingLead')}</p>
      {result?.proposal && result.formError ? <Alert kind="error">{msg(t, result.formError)}</Alert> : null}
      <ProposalFacts p={p} lng={lng} />
      <ol className="draw-chosen" aria-labelledby="draw-proposal">
        {p.tickets.map((c) => (
          <li key={c}>
            <span className="ticket-no nowrap">{c}</span>
          </li>
        ))}
      </ol>
      <Form method="post" action={action} className="draw-select__actions" preventScrollReset>
        <CsrfField />
        <input type="hidden" name="proposal_id" value={p.id} />
        {mine ? (
          <>
            <p className="muted">{t('draw.proposal.mine')}</p>
            <SubmitButton name="intent" value="reject" className="btn btn-ghost">
              {t('draw.proposal.withdraw')}
            </SubmitButton>
          </>
        ) : (
          <>
            {salesOpen ? (
              <p className="muted">{t('draw.proposal.approveAfterClose', { date: salesOpen })}</p>
            ) : (
              <SubmitButton name="intent" value="approve" className="btn btn-primary">
                {t('draw.proposal.approve')}
              </SubmitButton>
            )}
            <SubmitButton name="intent" value="reject" className="btn btn-ghost">
              {t('draw.proposal.reject')}
            </SubmitButton>
          </>
        )}
      </Form>
    </div>
  );
}

/** Who proposed the winners and why, and who decided, with the times. */
export function ProposalFacts({ p, lng }: { p: Proposal; lng: Language }) {
  const { t } = useTranslation('admin');
  return (
    <dl className="admin-card__facts">
      <div>
        <dt>{t('draw.proposal.by')}</dt>
        <dd>
          {p.proposed_by.name} · <DateTime value={p.proposed_at} lng={lng} withTime invalid={t('common:errors.invalidDate')} />
        </dd>
      </div>
      {p.decided_by && p.decided_at ? (
        <div>
          <dt>{t('draw.proposal.approvedBy')}</dt>
          <dd>
            {p.decided_by.name} · <DateTime value={p.decided_at} lng={lng} withTime invalid={t('common:errors.invalidDate')} />
          </dd>
        </div>
      ) : null}
      <div>
        <dt>{t('draw.proposal.reason')}</dt>
        <dd className="admin-card__wrap">{p.reason}</dd>
      </div>
    </dl>
  );
}
