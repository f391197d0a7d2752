/**
 * A player's message in words (docs/rules/messages.md#2-what-each-message-says): its title and text for the
 * notifications page, and its SMS, which always fits one message (shared/messages/kinds.ts fitSms). Rendered when
 * shown or sent, in the language asked for, from what the event stored.
 */
import { formatDate, formatNumber, toDigits } from '../../shared/dates.ts';
import type { Language } from '../../shared/i18n.ts';
import { fitSms, MessageParams, type MessageKind, type ParamsOf } from '../../shared/messages/kinds.ts';
import { formatTaka } from '../../shared/money.ts';
import { paths } from '../../shared/paths.ts';
import type { Texts } from '../i18n.ts';

export type Rendered = { title: string; text: string; sms: string; link: string };

/** Which variant of a kind's texts: a rejection's reason, a reminder's days. */
function variant(kind: MessageKind, p: Record<string, unknown>): string {
  if (kind === 'ticket_rejected') return `_${String(p.reason)}`;
  if (kind === 'claim_reminder') return `_${String(p.days)}`;
  // A payout by bKash names its TrxID (or bKash's refusal); one made by hand, its reference.
  if (kind === 'payout_sent') return p.trx_id !== undefined ? '_bkash' : p.reference !== undefined ? '_ref' : '';
  if (kind === 'payout_failed' && p.refusal !== undefined) return '_bkash';
  return '';
}

function link(kind: MessageKind, p: Record<string, unknown>): string {
  if (kind === 'new_lottery') return paths.allLotteries;
  if (kind === 'run_last_draw') return paths.run(Number(p.run_id));
  if (kind === 'claim_reminder' || kind === 'prize_won') return paths.prizeClaim(Number(p.prize_id));
  return paths.myLotteries;
}

/** The values a kind's texts name, written for `lng` (the lottery's Bengali name where it has one). */
function values(p: Record<string, unknown>, lng: Language): Record<string, string> {
  const out: Record<string, string> = {};
  const day = (iso: unknown) => (typeof iso === 'string' ? (formatDate(iso, lng) ?? iso) : '');
  if (typeof p.ticket === 'string') out.ticket = toDigits(p.ticket, lng);
  if (typeof p.amount === 'number') out.amount = formatTaka(p.amount, lng);
  if (typeof p.price === 'number') out.price = formatTaka(p.price, lng);
  if (typeof p.trx_id === 'string') out.trx = p.trx_id;
  if (typeof p.reference === 'string') out.reference = p.reference;
  if (typeof p.reason === 'string') out.reason = p.reason;
  if (p.deadline !== undefined) out.deadline = day(p.deadline);
  if (p.draw_date !== undefined) out.date = day(p.draw_date);
  if (typeof p.draws === 'number') out.draws = formatNumber(p.draws, lng);
  return out;
}

/** The message of `kind` with what its event stored, in `lng`; null when what was stored is not that kind's (never sent). */
export function renderMessage<K extends MessageKind>(t: Texts, kind: K, stored: unknown, lng: Language): Rendered | null {
  const parsed = MessageParams[kind].safeParse(stored);
  if (!parsed.success) return null;
  const p = parsed.data as ParamsOf<K> & Record<string, unknown>;
  const name = lng === 'bn' && p.lottery_bn ? p.lottery_bn : p.lottery;
  const key = `messages:kinds.${kind}`;
  const why = typeof p.refusal === 'string' ? { why: t(`${key}.why.${p.refusal}`, { lng }) } : {};
  const vars = { ...values(p, lng), ...why, lng, interpolation: { escapeValue: false } };
  const v = variant(kind, p);
  return {
    title: t(`${key}.title`, vars),
    text: t(`${key}.text${v}`, { ...vars, lottery: name }),
    sms: fitSms((lottery) => t(`${key}.sms${v}`, { ...vars, lottery }), name, lng),
    link: link(kind, p),
  };
}
