/**
 * Messages to players (docs/rules/messages.md): what each kind carries, which a player may switch off, and how an SMS is
 * kept within one message. Plain rules, no I/O: the server renders and sends, the pages show.
 */
import { z } from 'zod';
import { PAYOUT_REFUSAL_REASONS } from '../claims/payout.ts';
import type { Language } from '../i18n.ts';

/** Every kind of message, in the order the settings and the docs name them. */
export const MESSAGE_KINDS = [
  'ticket_confirmed',
  'ticket_rejected',
  'payment_refunded',
  'prize_won',
  'prize_withheld',
  'payout_sent',
  'payout_failed',
  'claim_reminder',
  'new_lottery',
  'run_last_draw',
] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

/**
 * The kinds a player may switch off, with their setting when he never chose: claim reminders are on, news of a new
 * lottery is off until he opts in. Every other kind is about his money and cannot be switched off.
 */
export const SWITCHABLE = { claim_reminder: true, new_lottery: false } as const satisfies Partial<Record<MessageKind, boolean>>;
export type SwitchableKind = keyof typeof SWITCHABLE;
export const SWITCHABLE_KINDS = Object.keys(SWITCHABLE) as SwitchableKind[];
export const isSwitchable = (k: MessageKind): k is SwitchableKind => k in SWITCHABLE;

/**
 * Marketing: never sent to a self-excluded player (docs/rules/play-safe.md#3-self-exclusion). A run's last draw invites
 * him to play his numbers again.
 */
export const MARKETING: readonly MessageKind[] = ['new_lottery', 'run_last_draw'];

/** At most this many SMS (or e-mails) to one player per Dhaka calendar day; the rest are on his notifications page only. */
export const DAILY_SMS_CAP = 5;

/**
 * Why a ticket was rejected: staff found it never paid (no TrxID), or the payment named could not be found; or it was
 * still pending when sales closed and the tickets froze (docs/rules/lotteries-and-sales.md#8-transaction-states).
 */
export const REJECT_REASONS = ['unpaid', 'payment_not_found', 'sales_closed'] as const;
export type RejectReason = (typeof REJECT_REASONS)[number];

/** The lottery by id and both names (the Bengali one '' when it has none: the English is shown). */
const lottery = { lottery_id: z.number().int(), lottery: z.string(), lottery_bn: z.string() };
const ticket = { ticket: z.string() };

/** What each kind's message says, stored with it when the event happens (the texts are rendered when shown or sent). */
export const MessageParams = {
  ticket_confirmed: z.object({ ...lottery, ...ticket, transaction_id: z.number().int(), amount: z.number() }),
  ticket_rejected: z.object({
    ...lottery,
    ...ticket,
    transaction_id: z.number().int(),
    amount: z.number(),
    reason: z.enum(REJECT_REASONS),
  }),
  payment_refunded: z.object({ ...lottery, ...ticket, transaction_id: z.number().int(), amount: z.number(), trx_id: z.string() }),
  prize_won: z.object({ ...lottery, ...ticket, prize_id: z.number().int(), amount: z.number(), deadline: z.string() }),
  /** `reason`: why it was withheld, as the superuser who proposed it wrote it (docs/rules/lotteries-and-sales.md#9-the-draw). */
  prize_withheld: z.object({ ...lottery, ...ticket, prize_id: z.number().int(), amount: z.number(), reason: z.string() }),
  /** `trx_id`: bKash's TrxID of a payout by bKash; `reference`: the reference of a transfer made by hand (older: neither). */
  payout_sent: z.object({
    ...lottery,
    ...ticket,
    prize_id: z.number().int(),
    amount: z.number(),
    trx_id: z.string().optional(),
    reference: z.string().optional(),
  }),
  /** `refusal`: why bKash refused the payout (shared/claims/payout.ts); none when staff marked the transfer failed. */
  payout_failed: z.object({
    ...lottery,
    ...ticket,
    prize_id: z.number().int(),
    amount: z.number(),
    refusal: z.enum(PAYOUT_REFUSAL_REASONS).optional(),
  }),
  claim_reminder: z.object({
    ...lottery,
    ...ticket,
    prize_id: z.number().int(),
    amount: z.number(),
    deadline: z.string(),
    days: z.union([z.literal(7), z.literal(1)]),
  }),
  new_lottery: z.object({ ...lottery, price: z.number(), draw_date: z.string() }),
  /** A paid run's last draw not drawn yet (`lottery`, on `draw_date`); `run_id` its run, `draws` how many it has. */
  run_last_draw: z.object({ ...lottery, run_id: z.number().int(), draws: z.number().int(), draw_date: z.string() }),
} as const satisfies Record<MessageKind, z.ZodType>;
export type ParamsOf<K extends MessageKind> = z.output<(typeof MessageParams)[K]>;

/**
 * One SMS: 160 characters of the GSM alphabet; a text with anything else (Bengali) is sent as UCS-2, 70 UTF-16 units.
 * Messages are written to fit one SMS; `fitSms` shortens the lottery's name (the one part of unbounded length) so
 * that they always do.
 */
export const SMS_LIMIT = { gsm: 160, ucs2: 70 } as const;
// The GSM 03.38 basic set (the extension table's characters count double and are avoided).
const GSM = /^[@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&'()*+,\-./0-9:;<=>?¡A-ZÄÖÑÜ§¿a-zäöñüà]*$/;
export const isGsm = (text: string): boolean => GSM.test(text);
export const smsLimit = (text: string): number => (isGsm(text) ? SMS_LIMIT.gsm : SMS_LIMIT.ucs2);
export const fitsOneSms = (text: string): boolean => text.length <= smsLimit(text);

/**
 * The text `render(name)` makes with the lottery's name shortened (ending in "…", or in "..." where the rest of the
 * text is GSM) until it fits one SMS; the name left out entirely when even one letter of it is too many. The
 * language decides only the ellipsis.
 */
export function fitSms(render: (name: string) => string, name: string, lng: Language): string {
  const full = render(name);
  if (fitsOneSms(full)) return full;
  const dots = lng === 'bn' ? '…' : '...';
  const chars = [...name];
  for (let n = chars.length - 1; n >= 1; n--) {
    const text = render(chars.slice(0, n).join('').trimEnd() + dots);
    if (fitsOneSms(text)) return text;
  }
  return render('');
}
