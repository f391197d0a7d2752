import { redirect, redirectDocument } from 'react-router';
import { api as contract } from '../../shared/api/contract.ts';
import { paths, withQuery } from '../../shared/paths.ts';
import type { apiOf } from '../context.ts';

/**
 * A run just made goes to bKash for its whole amount when it has every draw asked; shortened (or no longer pending),
 * or with `review` (a slip of several lines, whose amount the ticket page could not write out), to its first draw's
 * payment page, which says what it holds before anything is paid (its "Remember my bKash account" ticked when it was
 * here); with bKash not answering, there too, saying so.
 */
export async function toRunCheckout(
  api: ReturnType<typeof apiOf>,
  run: { lead_id: number; draws: number; draws_asked: number; status: string },
  { review = false, remember = false }: { review?: boolean; remember?: boolean } = {},
) {
  if (review || run.draws < run.draws_asked || run.status !== 'pending')
    return redirect(remember ? withQuery(paths.payment(run.lead_id), { remember: '1' }) : paths.payment(run.lead_id), 303);
  return toBkash(api, run.lead_id, { remember });
}

/**
 * The player to bKash for his pending purchase `id` (docs/rules/payments.md#3-paying-with-bkash-checkout): with
 * `remember`, to bKash's approval of an agreement first, whose callback then starts this payment with it (one already
 * remembered is simply used); otherwise to the payment, with his remembered account if he has one (his PIN only).
 * bKash not answering: his payment page, saying so.
 */
export async function toBkash(api: ReturnType<typeof apiOf>, id: number, { remember = false }: { remember?: boolean } = {}) {
  const unavailable = () => redirect(withQuery(paths.payment(id), { checkout: 'unavailable' }), 303);
  if (remember) {
    const a = await api.call(contract.startBkashAgreement, { body: { transaction_id: id } });
    if (a.ok) return redirectDocument(a.data.bkash_url, 303);
    if (a.error.code !== 'agreement_exists') return unavailable();
  }
  const c = await api.call(contract.startCheckout, { params: { id: String(id) } });
  if (c.ok) return redirectDocument(c.data.bkash_url, 303);
  return unavailable();
}
