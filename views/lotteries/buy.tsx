import { data, redirect, redirectDocument, type ActionFunctionArgs } from 'react-router';
import { api as contract } from '../../shared/api/contract.ts';
import { IdempotencyKey, PurchaseBody } from '../../shared/purchases/schemas.ts';
import { paths, withQuery } from '../../shared/paths.ts';
import { apiOf } from '../context.ts';
import { refuse, refused } from '../components/action.ts';
import { field } from '../components/form.tsx';
import { key } from '../components/messages.ts';
import { parseForm } from '../components/parse-form.ts';
import { IDEMPOTENCY_FIELD, type BuyResult } from './buy-form.tsx';
import { toRunCheckout } from './run-checkout.ts';

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
  form.delete('pay');
  const sentKey = field(form, IDEMPOTENCY_FIELD);
  const k = IdempotencyKey.safeParse(sentKey);
  if (!k.success) return refuse(key('lottery:buy.errors.reload'), 400);
  form.set('lottery_id', params.lotteryId ?? '');
  form.set('ticket', params.ticket ?? '');
  // A game's draw played in several consecutive draws: a run, paid once (docs/rules/games.md#6-consecutive-draws-and-play-slips).
  const draws = Number(field(form, 'draws') || '1');
  form.delete('draws');
  if (draws > 1) return buyRun(context, form, k.data, draws, checkout);
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
  const c = await apiOf(context).call(contract.startCheckout, { params: { id: String(r.data.id) } });
  if (c.ok) return redirectDocument(c.data.bkash_url, 303);
  return redirect(withQuery(paths.payment(r.data.id), { checkout: 'unavailable' }), 303);
}

/**
 * The ticket page's numbers in the game's next `draws` draws: a slip of one line made with the form's idempotency key;
 * with "Pay with bKash" straight to bKash for the whole run when it has every draw asked, otherwise (fewer on sale,
 * bKash not answering) to its first draw's payment page, which says what the run holds and what it costs before paying.
 * Send Money is for one draw only (a run is paid by one checkout).
 */
async function buyRun(context: ActionFunctionArgs['context'], form: FormData, idempotencyKey: string, draws: number, checkout: boolean) {
  const extra = { key: idempotencyKey, draws } satisfies BuyResult;
  if (!checkout) return data<BuyResult>({ ...extra, formError: key('lottery:buy.errors.runSendMoney') }, { status: 400 });
  const lottery = await apiOf(context).call(contract.getLottery, { params: { id: field(form, 'lottery_id') } });
  if (!lottery.ok || lottery.data.game_id === null) return refuse(key('lottery:buy.errors.failed'), 400);
  const r = await apiOf(context).call(contract.createRun, {
    body: { game_id: lottery.data.game_id, draws, lines: [field(form, 'ticket')] },
    idempotencyKey,
  });
  if (!r.ok) return refused(r, { fields: [], failed: 'lottery:buy.errors.failed', extra });
  return toRunCheckout(apiOf(context), r.data);
}
