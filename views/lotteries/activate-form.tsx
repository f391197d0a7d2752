import { useEffect, useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import { Link, useActionData, useFetcher } from 'react-router';
import { ticketState } from '../../shared/purchases/states.ts';
import { toAsciiDigits } from '../../shared/dates.ts';
import type { Language } from '../../shared/i18n.ts';
import { paths } from '../../shared/paths.ts';
import { SECRET_LENGTH } from '../../shared/ticket.ts';
import { CsrfField } from '../components/csrf-field.tsx';
import { Alert, Field, type FormResult } from '../components/form.tsx';
import { msg } from '../components/messages.ts';
import { Notice } from '../components/toast.tsx';
import { useHydrated } from '../components/use-hydrated.ts';
import { useTranslation } from '../i18n.tsx';
import { TicketBalls } from './balls.tsx';

/** What a successful activation shows: the lottery, the ticket and the transaction's status. */
export type Activated = { lottery_name: string; status: 'success'; ticket: string; transaction_id: number };
export type ActivateResult = FormResult & { activated?: Activated };

const TICKET_BOXES = 6;
const digitsOf = (s: string) => toAsciiDigits(s).replace(/\D/g, '');

/**
 * The activation form (docs/rules/tickets.md#7-activating-a-generated-ticket). Without JavaScript: one text input for
 * the ticket number and one for the secret, a plain post. With it: six two-digit boxes and sixteen one-digit boxes in
 * groups of four; digits only, focus moves on when a box is full and back on Backspace from an empty box, pasting a
 * whole number fills the boxes; the joined values go in the same two fields to the same action. `onClose` (the
 * dialog) adds Cancel and Close; "Activate another" and Close clear every box.
 */
export function ActivateForm({ onClose, lng }: { onClose?: () => void; lng: Language }) {
  // A new round is a new form: empty boxes and a fetcher of its own (one without a key ends with its component).
  const [round, setRound] = useState(0);
  const pageResult = useActionData<ActivateResult>();
  return (
    <OneActivation
      key={round}
      lng={lng}
      onClose={onClose}
      onReset={() => setRound((r) => r + 1)}
      pageResult={round === 0 ? pageResult : undefined}
    />
  );
}

function OneActivation({
  onClose,
  onReset,
  lng,
  pageResult,
}: {
  onClose: (() => void) | undefined;
  onReset: () => void;
  lng: Language;
  pageResult: ActivateResult | undefined;
}) {
  const { t } = useTranslation('activate');
  const hydrated = useHydrated();
  const fetcher = useFetcher<ActivateResult>();
  // A plain post renders the page with the action's result; with JavaScript the fetcher carries it.
  const result = fetcher.data ?? pageResult;
  const [ticket, setTicket] = useState<string[]>(() => Array<string>(TICKET_BOXES).fill(''));
  const [secret, setSecret] = useState<string[]>(() => Array<string>(SECRET_LENGTH).fill(''));
  const boxes = useRef<(HTMLInputElement | null)[]>([]);
  const busy = fetcher.state !== 'idle';
  const reset = onReset;

  if (result?.activated)
    return (
      <ActivatedView
        a={result.activated}
        lng={lng}
        onAnother={hydrated ? reset : undefined}
        onClose={
          onClose
            ? () => {
                reset();
                onClose();
              }
            : undefined
        }
      />
    );

  const e = result?.errors ?? {};
  const values = result?.values ?? {};
  const complete = ticket.every((x) => x.length > 0) && secret.every((x) => x.length === 1);
  const ticketValue = ticket.map((x) => x.padStart(2, '0')).join('-');

  const focus = (i: number) => {
    const el = boxes.current[i];
    if (el) {
      el.focus();
      el.select();
    }
  };
  /** Box i of all 22: the six ticket boxes, then the sixteen secret boxes. */
  const setBox = (i: number, value: string) => {
    if (i < TICKET_BOXES) setTicket((xs) => xs.map((x, k) => (k === i ? value : x)));
    else setSecret((xs) => xs.map((x, k) => (k === i - TICKET_BOXES ? value : x)));
  };
  const onInput = (i: number, raw: string) => {
    const max = i < TICKET_BOXES ? 2 : 1;
    const d = digitsOf(raw).slice(-max);
    setBox(i, d);
    if (d.length === max && i < TICKET_BOXES + SECRET_LENGTH - 1) focus(i + 1);
  };
  const onKeyDown = (i: number, ev: KeyboardEvent<HTMLInputElement>) => {
    if (ev.key === 'Backspace' && ev.currentTarget.value === '' && i > 0) {
      ev.preventDefault();
      focus(i - 1);
    }
  };
  const onPaste = (i: number, ev: ClipboardEvent<HTMLInputElement>) => {
    const text = toAsciiDigits(ev.clipboardData.getData('text'));
    if (i < TICKET_BOXES) {
      const parts = text.split(/\D+/).filter(Boolean);
      const all = digitsOf(text);
      const nums = parts.length === TICKET_BOXES ? parts : all.length === TICKET_BOXES * 2 ? (all.match(/\d{2}/g) ?? []) : [];
      if (nums.length !== TICKET_BOXES || nums.some((n) => n.length > 2)) return;
      ev.preventDefault();
      setTicket(nums);
      focus(TICKET_BOXES);
      return;
    }
    const d = digitsOf(text);
    if (d.length < 2) return;
    ev.preventDefault();
    const start = i - TICKET_BOXES;
    setSecret((xs) => xs.map((x, k) => (k >= start && k - start < d.length ? (d[k - start] as string) : x)));
    focus(Math.min(TICKET_BOXES + SECRET_LENGTH - 1, i + d.length));
  };
  const box = (i: number, value: string, label: string) => (
    <input
      key={i}
      ref={(el) => {
        boxes.current[i] = el;
      }}
      className={`digit-box${i < TICKET_BOXES ? ' digit-box--two' : ''}`}
      type="text"
      inputMode="numeric"
      autoComplete="off"
      pattern="[0-9]*"
      maxLength={i < TICKET_BOXES ? 2 : 1}
      aria-label={label}
      value={value}
      onChange={(ev) => onInput(i, ev.currentTarget.value)}
      onKeyDown={(ev) => onKeyDown(i, ev)}
      onPaste={(ev) => onPaste(i, ev)}
    />
  );

  // The plain page of the same address (views/lotteries/activate.tsx) shows this form without JavaScript.
  return (
    <fetcher.Form method="post" action={paths.activate} noValidate className="form activate-form">
      <CsrfField />
      {result?.formError ? <Alert kind="error">{msg(t, result.formError)}</Alert> : null}
      {hydrated ? (
        <>
          <input type="hidden" name="ticket_number" value={ticketValue} />
          <input type="hidden" name="secret_number" value={secret.join('')} />
          <fieldset className={`digit-boxes${e.ticket_number ? ' has-error' : ''}`}>
            <legend>{t('form.ticket')}</legend>
            <div className="digit-boxes__row">{ticket.map((x, i) => box(i, x, t('form.ticketBox', { n: i + 1 })))}</div>
            {e.ticket_number ? <p className="field__error">{msg(t, e.ticket_number)}</p> : null}
          </fieldset>
          <fieldset className={`digit-boxes${e.secret_number ? ' has-error' : ''}`}>
            <legend>{t('form.secret')}</legend>
            <div className="digit-boxes__row">
              {[0, 1, 2, 3].map((g) => (
                <span key={g} className="digit-boxes__group">
                  {secret
                    .slice(g * 4, g * 4 + 4)
                    .map((x, k) => box(TICKET_BOXES + g * 4 + k, x, t('form.secretBox', { n: g * 4 + k + 1 })))}
                </span>
              ))}
            </div>
            {e.secret_number ? <p className="field__error">{msg(t, e.secret_number)}</p> : null}
          </fieldset>
        </>
      ) : (
        <>
          <Field
            label={t('form.ticket')}
            name="ticket_number"
            autoComplete="off"
            spellCheck={false}
            maxLength={60}
            defaultValue={values.ticket_number ?? ''}
            hint={t('form.ticketHint')}
            error={msg(t, e.ticket_number)}
          />
          <Field
            label={t('form.secret')}
            name="secret_number"
            autoComplete="off"
            inputMode="numeric"
            spellCheck={false}
            maxLength={60}
            hint={t('form.secretHint')}
            error={msg(t, e.secret_number)}
          />
        </>
      )}
      <div className="dialog__actions">
        {onClose ? (
          <button
            type="button"
            className="btn btn-ghost"
            onClick={() => {
              reset();
              onClose();
            }}
          >
            {t('form.cancel')}
          </button>
        ) : null}
        <button type="submit" className="btn btn-primary" disabled={hydrated && (!complete || busy)} aria-busy={busy || undefined}>
          {busy ? t('form.submitting') : t('form.submit')}
        </button>
      </div>
    </fetcher.Form>
  );
}

/** The activated ticket: the lottery, the ticket and its status; a toast says so once JavaScript runs. */
function ActivatedView({ a, lng, onAnother, onClose }: { a: Activated; lng: Language; onAnother?: () => void; onClose?: () => void }) {
  const { t } = useTranslation('activate');
  const title = useRef<HTMLHeadingElement>(null);
  useEffect(() => title.current?.focus(), []);
  return (
    <div className="activate-done">
      <Notice text={t('success.toast')} position="bottom-right" />
      <h3 ref={title} tabIndex={-1} className="activate-done__title">
        {t('success.title')}
      </h3>
      <dl className="summary">
        <div>
          <dt>{t('success.lottery')}</dt>
          <dd>{a.lottery_name}</dd>
        </div>
        <div>
          <dt>{t('success.status')}</dt>
          <dd>
            <span className={`badge badge--${a.status}`}>
              {t(`common:ticketStates.${ticketState({ status: a.status, trx_id: null })}`)}
            </span>
          </dd>
        </div>
      </dl>
      <TicketBalls ticket={a.ticket} lng={lng} label={t('success.ticket')} size="sm" />
      <div className="dialog__actions">
        {onAnother ? (
          <button type="button" className="btn btn-ghost" onClick={onAnother}>
            {t('success.another')}
          </button>
        ) : (
          <Link className="btn btn-ghost" to={paths.activate} reloadDocument>
            {t('success.another')}
          </Link>
        )}
        {onClose ? (
          <button type="button" className="btn btn-primary" onClick={onClose}>
            {t('success.close')}
          </button>
        ) : (
          <Link className="btn btn-primary" to={paths.myLotteries}>
            {t('success.view')}
          </Link>
        )}
      </div>
    </div>
  );
}
