import { useEffect, useRef, useState, type FormEvent, type MouseEvent } from 'react';
import { formatNumber, toDigits } from '../../shared/dates.ts';
import { paths } from '../../shared/paths.ts';
import {
  formatTicket,
  LAST_MAX,
  MAIN_COUNT,
  MAIN_MAX,
  randomTicket,
  toggleLast,
  toggleMain,
  validateSelection,
} from '../../shared/ticket.ts';
import { useHydrated } from '../components/use-hydrated.ts';
import { useTranslation } from '../i18n.tsx';
import { Ball } from './balls.tsx';

export type Selection = { main: number[]; last: number | null };
/** panel: the home page's quick play; modal: a featured card on home; dialog: /all-lotteries. */
export type PickerVariant = 'panel' | 'modal' | 'dialog';

/** Easy Pick shows its numbers after a short reveal (0.8 s, docs/rules/pages.md#6-number-picker). */
export const REVEAL_MS = 800;
const MAIN = Array.from({ length: MAIN_MAX }, (_, i) => i + 1);
const LAST = Array.from({ length: LAST_MAX }, (_, i) => i + 1);

/**
 * The number picker of the quick-play panel, the featured-lottery modal and the all-lotteries dialog.
 * It is a real GET form to /quick-play (checkboxes `main`, radios `last`, hidden `lottery`): without
 * JavaScript the server checks the choice and redirects; with it, the selection is checked here and the page
 * goes straight to /quick-play/{id}/{ticket}. Clear and Easy Pick are submit buttons too, so they also work
 * without JavaScript (the server clears or fills the form).
 */
export function NumberPicker({
  lotteryId,
  variant = 'panel',
  initial,
  messages = [],
  onPlay,
  onChange,
}: {
  lotteryId: number;
  variant?: PickerVariant;
  initial?: Selection | undefined;
  /** Already translated messages from the server's check (shown until the selection changes). */
  messages?: string[];
  onPlay?: (href: string) => void;
  onChange?: (s: Selection) => void;
}) {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('lottery');
  const [main, setMain] = useState<number[]>(initial?.main ?? []);
  const [last, setLast] = useState<number | null>(initial?.last ?? null);
  const ready = useHydrated();
  const [revealing, setRevealing] = useState(false);
  // What the live region says; only warnings are also shown (the balls already show a pick or a clear).
  const [note, setNote] = useState<{ text: string; shown: boolean }>({ text: '', shown: false });
  const [changed, setChanged] = useState(false);
  const timer = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearTimeout(timer.current), []);
  useEffect(() => {
    onChange?.({ main, last });
    // onChange is the parent's; only the selection matters here
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [main, last]);

  const complete = main.length === MAIN_COUNT && last !== null;
  const digits = (n: number) => toDigits(String(n), lng);

  const pickMain = (n: number) => {
    const next = toggleMain(main, n);
    setChanged(true);
    if (next === main) {
      setNote({ text: t('picker.tooMany'), shown: true });
      return;
    }
    setNote({ text: '', shown: false });
    setMain(next);
  };
  const clear = (e: MouseEvent) => {
    e.preventDefault();
    setMain([]);
    setLast(null);
    setChanged(true);
    setNote({ text: t('picker.cleared'), shown: false });
  };
  const easyPick = (e: MouseEvent) => {
    e.preventDefault();
    setRevealing(true);
    setChanged(true);
    setNote({ text: t('picker.revealing'), shown: true });
    timer.current = window.setTimeout(() => {
      const tk = randomTicket();
      setMain(tk.main);
      setLast(tk.last);
      setRevealing(false);
      setNote({ text: t('picker.picked', { numbers: toDigits(formatTicket(tk).replace(/-/g, ' '), lng) }), shown: false });
    }, REVEAL_MS);
  };
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const v = validateSelection(main, last);
    if (!v.ok) return;
    const href = paths.quickPlay(lotteryId, formatTicket(v.ticket));
    if (onPlay) onPlay(href);
    else window.location.assign(href);
  };

  const slots = Array.from({ length: MAIN_COUNT }, (_, i) => main[i] ?? null);
  return (
    <form method="get" action={paths.picker} className={`picker picker--${variant}`} onSubmit={submit} noValidate>
      <input type="hidden" name="lottery" value={lotteryId} />
      {messages.length && !changed ? (
        <div className="alert alert--error" role="alert">
          {messages.map((m) => (
            <p key={m} className="picker__message">
              {m}
            </p>
          ))}
        </div>
      ) : null}
      <fieldset className="picker__group" disabled={revealing}>
        <legend className="picker__legend">
          {t('picker.mainLegend')} <span className="picker__range">{t('picker.mainRange')}</span>
        </legend>
        <div className={`picker__grid${main.length >= MAIN_COUNT ? ' is-full' : ''}`}>
          {MAIN.map((n) => (
            <label key={n} className="pick">
              <input type="checkbox" name="main" value={n} checked={main.includes(n)} onChange={() => pickMain(n)} />
              <span className="pick__ball">{digits(n)}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset className="picker__group picker__group--last" disabled={revealing}>
        <legend className="picker__legend">
          {t('picker.lastLegend')} <span className="picker__range">{t('picker.lastRange')}</span>
        </legend>
        <div className="picker__grid">
          {LAST.map((n) => (
            <label key={n} className="pick pick--last">
              <input
                type="radio"
                name="last"
                value={n}
                checked={last === n}
                onChange={() => {
                  setChanged(true);
                  setNote({ text: '', shown: false });
                  setLast(n);
                }}
                // Choosing the current last number again clears it (docs/rules/tickets.md#4-picking-numbers); a radio alone cannot be unchecked,
                // and Chrome sends no click for Space on a checked radio, hence the key handler.
                onClick={() => {
                  if (toggleLast(last, n) === null) setLast(null);
                }}
                onKeyDown={(e) => {
                  if (e.key === ' ' && last === n) {
                    e.preventDefault();
                    setLast(null);
                  }
                }}
              />
              <span className="pick__ball">{digits(n)}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="picker__bar">
        <div className="picker__chosen">
          <span className="picker__chosen-label">{t('picker.yourNumbers')}</span>
          <span className={`balls${revealing ? ' is-revealing' : ''}`}>
            {slots.map((n, i) => (
              <Ball key={i} n={revealing ? null : n} lng={lng} />
            ))}
            <span className="balls__plus" aria-hidden="true">
              +
            </span>
            <Ball n={revealing ? null : last} last lng={lng} />
          </span>
        </div>
        <ul className="picker__checklist">
          <li className={main.length === MAIN_COUNT ? 'is-done' : ''}>
            {t('picker.selectFiveMain')}{' '}
            <span className="picker__count">
              ({formatNumber(main.length, lng)}/{formatNumber(MAIN_COUNT, lng)})
            </span>
          </li>
          <li className={last !== null ? 'is-done' : ''}>{t('picker.selectLast')}</li>
        </ul>
        <p className={note.shown ? 'picker__note' : 'visually-hidden'} role="status">
          {note.text}
        </p>
        <div className="picker__actions">
          <button type="submit" name="action" value="clear" className="btn btn-ghost btn-sm" onClick={clear} disabled={revealing}>
            {t('picker.clear')}
          </button>
          <button
            type="submit"
            name="action"
            value="easy"
            className="btn btn-light btn-sm picker__easy"
            onClick={easyPick}
            disabled={revealing}
          >
            {t('picker.easyPick')}
          </button>
          <button type="submit" className="btn btn-primary picker__submit" disabled={revealing || (ready && !complete)}>
            {t('picker.confirmPlay')}
          </button>
        </div>
      </div>
    </form>
  );
}
