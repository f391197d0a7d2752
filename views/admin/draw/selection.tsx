/** The draw page's winner selection by hand (docs/rules/lotteries-and-sales.md#9-the-draw). */
import { Form } from 'react-router';
import { formatNumber } from '../../../shared/dates.ts';
import { REASON_MAX } from '../../../shared/draws/schemas.ts';
import { CsrfField } from '../../components/csrf-field.tsx';
import { Alert, Field, SubmitButton } from '../../components/form.tsx';
import { msg } from '../../components/messages.ts';
import { useTranslation } from '../../i18n.tsx';
import type { Result } from './page.ts';

/** The winner selection: every button posts the form; the chosen tickets are its hidden inputs. */
export function Selection({
  lotteryId,
  winners,
  action,
  result,
}: {
  lotteryId: number;
  winners: number;
  action: string;
  result: Result | undefined;
}) {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('admin');
  const chosen = result?.chosen ?? [];
  const full = chosen.length >= winners;
  const ticketError = msg(t, result?.errors?.ticket);
  return (
    <div className="draw-section card draw-select">
      <h2 id="draw-select">{t('draw.select')}</h2>
      <p className="muted">{t('draw.selectLead', { count: winners, n: formatNumber(winners, lng) })}</p>
      <p className="draw-unverifiable-note">{t('draw.proposal.lead')}</p>
      {/* key: the typed ticket starts empty again once it was added */}
      <Form method="post" action={action} noValidate className="draw-select__form" key={chosen.join(',')}>
        <CsrfField />
        <input type="hidden" name="lottery_id" value={lotteryId} />
        <input type="hidden" name="winners" value={winners} />
        {chosen.map((c) => (
          <input key={c} type="hidden" name="chosen" value={c} />
        ))}
        {result?.formError ? (
          <Alert kind="error">
            {msg(t, result.formError)}
            {result.formErrors?.length ? (
              <ul>
                {result.formErrors.map((m) => (
                  <li key={m}>{m}</li>
                ))}
              </ul>
            ) : null}
          </Alert>
        ) : null}
        <div className={`field draw-select__ticket${ticketError ? ' has-error' : ''}`}>
          <label htmlFor="draw-ticket">{t('draw.ticketLabel')}</label>
          <div className="draw-select__row">
            <input
              id="draw-ticket"
              name="ticket"
              type="text"
              inputMode="numeric"
              autoComplete="off"
              maxLength={40}
              placeholder="xx-xx-xx-xx-xx-x"
              defaultValue={result?.errors?.ticket ? (result.values?.ticket ?? '') : ''}
              aria-invalid={ticketError ? true : undefined}
              aria-describedby={ticketError ? 'draw-ticket-err' : 'draw-ticket-hint'}
            />
            {/* First in the form: Enter in the ticket box adds the ticket. */}
            <SubmitButton name="intent" value="add" className="btn btn-primary" disabled={full}>
              {t('draw.add')}
            </SubmitButton>
          </div>
          {ticketError ? (
            <p id="draw-ticket-err" className="field__error">
              {ticketError}
            </p>
          ) : (
            <p id="draw-ticket-hint" className="field__hint">
              {t('draw.ticketHint')}
            </p>
          )}
        </div>
        <div className="draw-select__actions">
          <SubmitButton name="intent" value="clear" className="btn btn-ghost" disabled={!chosen.length}>
            {t('draw.clear')}
          </SubmitButton>
        </div>
        <h3 id="draw-chosen">{t('draw.chosen', { n: formatNumber(chosen.length, lng), winners: formatNumber(winners, lng) })}</h3>
        {chosen.length === 0 ? (
          <p className="muted">{t('draw.none')}</p>
        ) : (
          <ol className="draw-chosen" aria-labelledby="draw-chosen">
            {chosen.map((c) => (
              <li key={c}>
                <span className="ticket-no nowrap">{c}</span>
                <button
                  type="submit"
                  name="remove"
                  value={c}
                  className="btn btn-ghost btn-sm"
                  aria-label={t('draw.removeOne', { ticket: c })}
                >
                  {t('draw.remove')}
                </button>
              </li>
            ))}
          </ol>
        )}
        <Field
          label={t('draw.proposal.reason')}
          name="reason"
          maxLength={REASON_MAX}
          autoComplete="off"
          defaultValue={result?.values?.reason ?? ''}
          hint={t('draw.proposal.reasonHint')}
          error={msg(t, result?.errors?.reason)}
        />
        <SubmitButton name="intent" value="propose" className="btn btn-primary btn-block" disabled={!chosen.length}>
          {t('draw.proposal.propose')}
        </SubmitButton>
      </Form>
    </div>
  );
}
