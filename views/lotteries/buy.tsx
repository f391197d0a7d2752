import { data, redirect, type ActionFunctionArgs } from 'react-router';
import { api as contract } from '../../shared/api/contract.ts';
import { IdempotencyKey, PurchaseBody } from '../../shared/purchases/schemas.ts';
import { paths } from '../../shared/paths.ts';
import { apiOf } from '../context.ts';
import { refuse, refused } from '../components/action.ts';
import { field } from '../components/form.tsx';
import { key } from '../components/messages.ts';
import { parseForm } from '../components/parse-form.ts';
import { IDEMPOTENCY_FIELD, MORE_LINES_FIELD, QUICK_LINES_FIELD, REMEMBER_FIELD, type BuyResult } from './buy-form.tsx';
import { QUICK_PICK, SLIP_LINES_MAX } from '../../shared/purchases/runs.ts';
import { toBkash, toRunCheckout } from './run-checkout.ts';

/**
 * /quick-play/{lotteryId}/{ticket}/buy, in the `player` group: the ticket page's purchase. Shown with GET it is the
 * ticket page itself; its POST buys the ticket with the form's idempotency key and goes on to the payment page
 * (303). A refusal (sales closed, numbers taken, too many tries) comes back on the ticket page, numbers kept.
 */
export { loader, Component } from './quick-play.tsx';

export async function action({ request, params, context }: ActionFunctionArgs) {
  const form = await request.formData();
  // Which button: "Pay with bKash" (the checkout, docs/rules/payments.md#3-paying-with-bkash-checkout) or "Send Money" (the payment page's TrxID).
  const checkout = field(form, 'pay') === 'checkout';
  // "Remember my bKash account" (docs/rules/payments.md#11-remembered-bkash-agreements).
  const remember = checkout && field(form, REMEMBER_FIELD) === '1';
  form.delete('pay');
  form.delete(REMEMBER_FIELD);
  const sentKey = field(form, IDEMPOTENCY_FIELD);
  const k = IdempotencyKey.safeParse(sentKey);
  if (!k.success) return refuse(key('lottery:buy.errors.reload'), 400);
  form.set('lottery_id', params.lotteryId ?? '');
  form.set('ticket', params.ticket ?? '');
  // A game's draw played in several consecutive draws, or with several lines: a slip, paid once
  // (docs/rules/games.md#6-consecutive-draws-and-play-slips).
  const draws = Number(field(form, 'draws') || '1');
  const slip = slipLinesOf(form);
  for (const name of ['draws', MORE_LINES_FIELD, QUICK_LINES_FIELD]) form.delete(name);
  if (draws > 1 || slip.typed.some((x) => x !== '') || slip.quick > 0)
    return buyRun(context, form, k.data, draws, { checkout, remember }, slip);
  const v = parseForm(form, PurchaseBody);
  if (!v.ok) {
    const { payment_method, ...rest } = v.errors;
    const other = Object.values(rest)[0] ?? v.formError;
    return data<BuyResult>(
      { key: k.data, ...(payment_method ? { errors: { payment_method } } : {}), ...(other ? { formError: other } : {}) },
      { status: 400 },
    );
  }
  const r = await apiOf(context).call(contract.createTransaction, { body: v.data, idempotencyKey: k.data });
  if (!r.ok)
    return refused(r, {
      fields: ['ticket', 'payment_method'],
      failed: 'lottery:buy.errors.failed',
      extra: { key: k.data } satisfies BuyResult,
    });
  if (!checkout || r.data.status !== 'pending' || r.data.trx_id) return redirect(paths.payment(r.data.id), 303);
  // The purchase holds the numbers; bKash's page is a whole new document. When bKash does not answer, the payment page
  // says so and offers both ways again.
  return toBkash(apiOf(context), r.data.id, { remember });
}

/**
 * A play slip's further lines as the form sent them: each typed line as typed (kept for the form's return), and how
 * many quick picks (0–9; anything else is none).
 */
function slipLinesOf(form: FormData): { typed: string[]; quick: number } {
  const typed = form.getAll(MORE_LINES_FIELD).map((x) => (typeof x === 'string' ? x.trim().slice(0, 40) : ''));
  const n = Number(field(form, QUICK_LINES_FIELD) || '0');
  return { typed, quick: Number.isInteger(n) && n >= 0 && n < SLIP_LINES_MAX ? n : 0 };
}

/** A typed line as the API reads a ticket: its numbers separated by dashes, whatever a phone's keyboard put between them. */
const asTicket = (typed: string) => typed.replace(/[\s,./]+/g, '-');

/**
 * The ticket page's numbers, and the slip's further lines, in the game's next `draws` draws: a slip made with the
 * form's idempotency key; with "Pay with bKash" straight to bKash for the whole when it is one line with every draw
 * asked, otherwise (several lines, fewer draws on sale, bKash not answering) to its first draw's payment page, which
 * says what the slip holds and what it costs before paying. "Send Money" goes to that page too, whose steps ask one
 * TrxID of the whole amount.
 */
async function buyRun(
  context: ActionFunctionArgs['context'],
  form: FormData,
  idempotencyKey: string,
  draws: number,
  { checkout, remember }: { checkout: boolean; remember: boolean },
  slip: { typed: string[]; quick: number },
) {
  const extra = { key: idempotencyKey, draws, lines: slip.typed, quick: slip.quick } satisfies BuyResult;
  const lottery = await apiOf(context).call(contract.getLottery, { params: { id: field(form, 'lottery_id') } });
  if (!lottery.ok || lottery.data.game_id === null) return refuse(key('lottery:buy.errors.failed'), 400);
  const lines = [field(form, 'ticket'), ...slip.typed.filter((x) => x !== '').map(asTicket), ...Array<string>(slip.quick).fill(QUICK_PICK)];
  const r = await apiOf(context).call(contract.createRun, { body: { game_id: lottery.data.game_id, draws, lines }, idempotencyKey });
  if (!r.ok) return refused(r, { fields: [], failed: 'lottery:buy.errors.failed', extra });
  // Send Money: the run's first draw's payment page, whose steps ask one TrxID of the whole amount.
  if (!checkout) return redirect(paths.payment(r.data.lead_id), 303);
  return toRunCheckout(apiOf(context), r.data, { review: r.data.lines > 1, remember });
}
