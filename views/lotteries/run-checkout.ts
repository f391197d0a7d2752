import { redirect, redirectDocument } from 'react-router';
import { api as contract } from '../../shared/api/contract.ts';
import { paths, withQuery } from '../../shared/paths.ts';
import type { apiOf } from '../context.ts';

/**
 * A run just made goes to bKash for its whole amount when it has every draw asked; shortened (or no longer pending),
 * or with `review` (a slip of several lines, whose amount the ticket page could not write out), to its first draw's
 * payment page, which says what it holds before anything is paid; with bKash not answering, there too, saying so.
 */
export async function toRunCheckout(
  api: ReturnType<typeof apiOf>,
  run: { lead_id: number; draws: number; draws_asked: number; status: string },
  { review = false }: { review?: boolean } = {},
) {
  if (review || run.draws < run.draws_asked || run.status !== 'pending') return redirect(paths.payment(run.lead_id), 303);
  const c = await api.call(contract.startCheckout, { params: { id: String(run.lead_id) } });
  if (c.ok) return redirectDocument(c.data.bkash_url, 303);
  return redirect(withQuery(paths.payment(run.lead_id), { checkout: 'unavailable' }), 303);
}
