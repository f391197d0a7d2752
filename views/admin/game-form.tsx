/**
 * A game's form, the same on /admin/games/new and on the game's page (docs/rules/games.md#1-the-game), posted as a plain
 * form; and what the games' pages write of a game: its name in the page's language and its calendar in words.
 */
import { Fragment } from 'react';
import { Form, type ActionFunctionArgs } from 'react-router';
import type { z } from 'zod';
import type { ApiClient } from '../../shared/api-client.ts';
import type { ApiResult } from '../../shared/api-types.ts';
import { dhakaDateInputValue, formatDate, formatNumber } from '../../shared/dates.ts';
import { WEEKDAYS, type Weekday } from '../../shared/games/calendar.ts';
import { CLOSE_MINUTES_MAX, DRAWS_AHEAD_MAX, GAME_NAME_MAX, GameBody, GamePatch, NEW_GAME, type Game } from '../../shared/games/schemas.ts';
import type { Language } from '../../shared/i18n.ts';
import { apiOf } from '../context.ts';
import { invalid, refused, type FormReply, type Refusal } from '../components/action.ts';
import { CsrfField } from '../components/csrf-field.tsx';
import { Alert, Field, SubmitButton, TextArea, type FormResult } from '../components/form.tsx';
import { msg } from '../components/messages.ts';
import { parseForm } from '../components/parse-form.ts';
import type { TFunction } from '../i18n.tsx';
import { useTranslation } from '../i18n.tsx';

export type GameRow = z.output<typeof Game>;

/** The game's name in the page's language: the Bengali one when there is one and the page is in Bengali. */
export const gameName = (g: Pick<GameRow, 'name' | 'name_bn'>, lng: Language): string => (lng === 'bn' && g.name_bn ? g.name_bn : g.name);

/** A Dhaka time of day `HH:MM` as the pages write times: `8:00 PM`, `রাত ৮:০০` (formatDate's own time). */
export function clockOf(hhmm: string, lng: Language): string {
  const text = /^\d{2}:\d{2}$/.test(hhmm) ? formatDate(`2026-01-03T${hhmm}:00+06:00`, lng, { withTime: true }) : null;
  return text === null ? hhmm : text.slice(text.lastIndexOf(', ') + 2);
}

/** The calendar in words: "Every Tuesday and Saturday, 8:00 PM", "প্রতি শনিবার, রাত ৮:০০", "Every day, …". */
export function calendarText(t: TFunction, lng: Language, days: readonly Weekday[], hhmm: string): string {
  const time = clockOf(hhmm, lng);
  if (WEEKDAYS.every((d) => days.includes(d))) return t('games.daily', { time });
  const names = WEEKDAYS.filter((d) => days.includes(d)).map((d) => t(`games.weekdays.${d}`));
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} ${t('games.and')} ${names.at(-1)}` : (names[0] ?? '');
  return t('games.weekly', { days: list, time });
}

/** The ticked weekdays of a values record (`draw_days` holds them separated by spaces). */
const daysIn = (values: Record<string, string>): string[] => (values.draw_days ?? '').split(' ').filter(Boolean);

/**
 * The form's values: what is stored (a game's page) or a new game's defaults (NEW_GAME; no draw before today, Lucky
 * Chance none, active). Flags are 'true' or 'false', as the action reads an unticked box.
 */
export function valuesOf(g: GameRow | null, now: number): Record<string, string> {
  if (!g)
    return {
      ticket_price: String(NEW_GAME.ticket_price),
      tickets_per_draw: String(NEW_GAME.tickets_per_draw),
      jackpot_share: String(NEW_GAME.jackpot_share),
      draw_days: NEW_GAME.draw_days.join(' '),
      draw_time: NEW_GAME.draw_time,
      close_minutes: String(NEW_GAME.close_minutes),
      draws_ahead: String(NEW_GAME.draws_ahead),
      lucky_count: '0',
      lucky_prize: '0',
      starts_at: dhakaDateInputValue(new Date(now)) ?? '',
      active: 'true',
    };
  return {
    name: g.name,
    name_bn: g.name_bn,
    description: g.description,
    description_bn: g.description_bn,
    ticket_price: String(g.ticket_price),
    tickets_per_draw: String(g.tickets_per_draw),
    jackpot_share: String(g.jackpot_share),
    tier2_prize: String(g.tier2_prize),
    tier3_prize: String(g.tier3_prize),
    tier4_prize: String(g.tier4_prize),
    tier5_prize: String(g.tier5_prize),
    lucky_count: String(g.lucky_count),
    lucky_prize: String(g.lucky_prize),
    draw_days: g.draw_days.join(' '),
    draw_time: g.draw_time,
    close_minutes: String(g.close_minutes),
    draws_ahead: String(g.draws_ahead),
    starts_at: dhakaDateInputValue(g.starts_at) ?? '',
    active: String(g.active),
  };
}

type GameInput = z.input<typeof GameBody>;

/**
 * A posted game form to one call. The weekdays' boxes arrive as several `draw_days` values, which the form reader
 * (one value a field) would cut to the first: the schema checks the first ticked day, and the API gets them all as a
 * list. An unticked Active says "no"; a new game's empty Lucky Chance is none; an empty start (or, editing, the one the page showed) is left out: now, or
 * as stored. The API is sent what was typed, and reads it with the same schema (the schema's output is not its input:
 * the draw time becomes minutes).
 */
export async function postGame<T>(
  form: FormData,
  context: ActionFunctionArgs['context'],
  o: { editing: boolean; call: (api: ApiClient, body: GameInput) => Promise<ApiResult<T>>; failed: Refusal['failed'] },
): Promise<{ ok: true; data: T } | { ok: false; reply: FormReply<FormResult> }> {
  form.set('active', form.get('active') === 'on' ? 'true' : 'false');
  const ticked = new Set(form.getAll('draw_days'));
  const days = WEEKDAYS.filter((d) => ticked.has(d));
  form.delete('draw_days');
  if (days[0]) form.set('draw_days', days[0]);
  // A new game's Lucky Chance left empty is none: 0 and 0, as the form says (editing, an empty field is left as stored).
  if (!o.editing) for (const f of ['lucky_count', 'lucky_prize']) if (!String(form.get(f) ?? '').trim()) form.set(f, '0');
  const start = String(form.get('starts_at') ?? '').trim();
  if (!start || (o.editing && start === form.get('starts_at_was'))) form.delete('starts_at');
  const v = parseForm(form, o.editing ? GamePatch : GameBody);
  const values = { ...v.values, draw_days: days.join(' '), starts_at: start };
  if (!v.ok) return { ok: false, reply: invalid({ ...v, values }) };
  const body = { ...v.values, draw_days: days } as GameInput;
  const r = await o.call(apiOf(context), body);
  if (r.ok) return { ok: true, data: r.data };
  return { ok: false, reply: refused(r, { failed: o.failed, values }) };
}

/** The form of a new game (`editing` false) or of a game's change: every field, sent whole. */
export function GameForm({
  values,
  errors = {},
  formError,
  editing,
  startsWas = '',
}: {
  values: Record<string, string>;
  errors?: Record<string, string> | undefined;
  formError?: string | undefined;
  editing: boolean;
  /** Editing: the start the page showed as stored (sent back unchanged, it is left as stored: it may not be a midnight). */
  startsWas?: string;
}) {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('admin');
  const days = daysIn(values);
  const field = (name: string, label: string, extra: Record<string, unknown> = {}) => (
    <Field label={label} name={name} defaultValue={values[name] ?? ''} error={msg(t, errors[name])} {...extra} />
  );
  const amount = (name: string, label: string) => field(name, label, { inputMode: 'numeric', required: true });
  const daysError = msg(t, errors.draw_days);
  return (
    <Form method="post" noValidate className="form card admin-form game-form">
      <CsrfField />
      {editing ? (
        <>
          <input type="hidden" name="intent" value="save" />
          <input type="hidden" name="starts_at_was" value={startsWas} />
        </>
      ) : null}
      {formError ? <Alert kind="error">{msg(t, formError)}</Alert> : null}
      <div className="admin-form__grid">
        {field('name', t('gameForm.name'), { maxLength: GAME_NAME_MAX, required: true, hint: t('gameForm.nameHint') })}
        {field('name_bn', t('gameForm.nameBn'), { maxLength: GAME_NAME_MAX, lang: 'bn', hint: t('gameForm.nameBnHint') })}
        <TextArea
          idPrefix="game"
          name="description"
          label={t('gameForm.description')}
          value={values.description}
          error={msg(t, errors.description)}
        />
        <TextArea
          idPrefix="game"
          name="description_bn"
          label={t('gameForm.descriptionBn')}
          value={values.description_bn}
          error={msg(t, errors.description_bn)}
          lang="bn"
        />
      </div>
      <fieldset className="admin-form__grid kind-fields">
        <legend>{t('gameForm.calendar')}</legend>
        <fieldset className="game-days field--wide" aria-describedby={daysError ? 'game-days-err' : undefined}>
          <legend>{t('gameForm.drawDays')}</legend>
          <div className="game-days__boxes">
            {WEEKDAYS.map((d) => (
              <label key={d} className="toggle">
                <input type="checkbox" name="draw_days" value={d} defaultChecked={days.includes(d)} />
                <span>{t(`games.weekdays.${d}`)}</span>
              </label>
            ))}
          </div>
          {daysError ? (
            <p id="game-days-err" className="field__error">
              {daysError}
            </p>
          ) : null}
        </fieldset>
        {field('draw_time', t('gameForm.drawTime'), { type: 'time', required: true, hint: t('gameForm.drawTimeHint') })}
        {field('close_minutes', t('gameForm.closeMinutes'), {
          inputMode: 'numeric',
          required: true,
          hint: t('gameForm.closeMinutesHint', { max: formatNumber(CLOSE_MINUTES_MAX, lng) }),
        })}
        {field('draws_ahead', t('gameForm.drawsAhead'), {
          inputMode: 'numeric',
          required: true,
          hint: t('gameForm.drawsAheadHint', { max: formatNumber(DRAWS_AHEAD_MAX, lng) }),
        })}
        {field('starts_at', t('gameForm.startsAt'), { type: 'date', hint: t('gameForm.startsAtHint') })}
      </fieldset>
      <fieldset className="admin-form__grid kind-fields">
        <legend>{t('gameForm.sales')}</legend>
        {amount('ticket_price', t('gameForm.ticketPrice'))}
        {amount('tickets_per_draw', t('gameForm.ticketsPerDraw'))}
        {field('jackpot_share', t('gameForm.jackpotShare'), {
          inputMode: 'numeric',
          required: true,
          hint: t('gameForm.jackpotShareHint'),
        })}
        <p className="field__hint field--wide">{t('gameForm.tiersLead')}</p>
        {([2, 3, 4, 5] as const).map((n) => (
          <Fragment key={n}>{amount(`tier${n}_prize`, t(`gameForm.tier${n}`))}</Fragment>
        ))}
      </fieldset>
      <fieldset className="admin-form__grid kind-fields">
        <legend>{t('gameForm.lucky')}</legend>
        <p className="field__hint field--wide">{t('gameForm.luckyLead')}</p>
        {field('lucky_count', t('gameForm.luckyCount'), { inputMode: 'numeric' })}
        {field('lucky_prize', t('gameForm.luckyPrize'), { inputMode: 'numeric' })}
      </fieldset>
      <fieldset className="admin-form__toggles">
        <label className="toggle">
          <input type="checkbox" name="active" defaultChecked={values.active === 'true'} />
          <span>{t('gameForm.active')}</span>
        </label>
      </fieldset>
      <SubmitButton name="intent" value={editing ? 'save' : undefined}>
        {editing ? t('gameForm.save') : t('gameForm.create')}
      </SubmitButton>
    </Form>
  );
}
