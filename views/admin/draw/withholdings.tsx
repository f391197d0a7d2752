/** The pending proposals to withhold a prize on the draw page (docs/rules/lotteries-and-sales.md#9-the-draw). */
import { Form } from 'react-router';
import { formatDate } from '../../../shared/dates.ts';
import { REASON_MAX } from '../../../shared/draws/schemas.ts';
import { CsrfField } from '../../components/csrf-field.tsx';
import { Field, SubmitButton } from '../../components/form.tsx';
import { msg } from '../../components/messages.ts';
import { Amount } from '../../components/nowrap.tsx';
import { useTranslation } from '../../i18n.tsx';
import type { Result, Withholding } from './page.ts';

/**
 * The pending proposals to withhold a prize, each a plain form with a reason: a second staff member approves or rejects
 * it, its author withdraws it (docs/rules/lotteries-and-sales.md#9-the-draw).
 */
export function Withholdings({
  items,
  me,
  action,
  result,
}: {
  items: Withholding[];
  me: number;
  action: string;
  result: Result | undefined;
}) {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('admin');
  if (!items.length) return null;
  return (
    <div className="draw-withholdings">
      <h3 id="draw-withholdings">{t('draw.withholding.title')}</h3>
      {items.map((w) => {
        const own = w.proposed_by.id === me;
        return (
          <Form key={w.id} method="post" action={action} className="card draw-withholding" aria-labelledby={`withholding-${w.id}`}>
            <CsrfField />
            <input type="hidden" name="proposal_id" value={w.id} />
            <p id={`withholding-${w.id}`}>
              <span className="nowrap ticket-no">{w.ticket}</span> <Amount value={w.prize_money} lng={lng} />
            </p>
            <p>
              {t('draw.withholding.by', {
                name: w.proposed_by.name,
                reason: w.reason,
                date: formatDate(w.proposed_at, lng, { withTime: true }) ?? w.proposed_at,
              })}
            </p>
            {own ? <p className="muted">{t('draw.withholding.own')}</p> : null}
            <Field
              label={t('draw.withholding.decisionReason')}
              name="reason"
              required
              maxLength={REASON_MAX}
              autoComplete="off"
              error={msg(t, result?.errors?.reason)}
            />
            <div className="draw-withholding__buttons">
              {own ? null : (
                <SubmitButton name="intent" value="withhold-approve" className="btn btn-danger">
                  {t('draw.withholding.approve')}
                </SubmitButton>
              )}
              <SubmitButton name="intent" value="withhold-reject" className="btn btn-ghost">
                {own ? t('draw.withholding.withdraw') : t('draw.withholding.reject')}
              </SubmitButton>
            </div>
          </Form>
        );
      })}
    </div>
  );
}
