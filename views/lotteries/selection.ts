import { isLastNumber, isMainNumber, MAIN_COUNT, validateSelection, type Ticket } from '../../shared/ticket.ts';

/** What the no-JavaScript picker form sent to /quick-play: `lottery`, `main` (repeated), `last`. */
export type SentSelection = {
  lotteryId: number | null;
  /** In-range, distinct main numbers, ascending (kept to refill the form, even more than five). */
  main: number[];
  last: number | null;
  /** Something out of range or not a number was sent (a hand-made URL). */
  invalid: boolean;
};

/** Keys of lottery.json `errors`. */
export type SelectionMessage = 'selectAtLeastFive' | 'selectOnlyFive' | 'selectLastNumber' | 'invalidNumber';

const INT = /^\d{1,9}$/;

export function readSelection(q: URLSearchParams): SentSelection {
  const id = (q.get('lottery') ?? '').trim();
  const lotteryId = INT.test(id) && Number(id) > 0 ? Number(id) : null;
  let invalid = false;
  const main = new Set<number>();
  for (const raw of q.getAll('main')) {
    const v = raw.trim();
    const n = INT.test(v) ? Number(v) : NaN;
    if (isMainNumber(n)) main.add(n);
    else invalid = true;
  }
  const rawLast = (q.get('last') ?? '').trim();
  let last: number | null = null;
  if (rawLast !== '') {
    const n = INT.test(rawLast) ? Number(rawLast) : NaN;
    if (isLastNumber(n)) last = n;
    else invalid = true;
  }
  return { lotteryId, main: [...main].sort((a, b) => a - b), last, invalid };
}

/** The ticket, or the messages to show under the picker, in the order the form asks. */
export function checkSelection(
  s: Pick<SentSelection, 'main' | 'last' | 'invalid'>,
): { ok: true; ticket: Ticket } | { ok: false; messages: SelectionMessage[] } {
  const messages: SelectionMessage[] = [];
  if (s.invalid) messages.push('invalidNumber');
  if (s.main.length < MAIN_COUNT) messages.push('selectAtLeastFive');
  if (s.main.length > MAIN_COUNT) messages.push('selectOnlyFive');
  if (s.last === null) messages.push('selectLastNumber');
  if (messages.length) return { ok: false, messages };
  const v = validateSelection(s.main, s.last);
  return v.ok ? { ok: true, ticket: v.ticket } : { ok: false, messages: ['invalidNumber'] };
}
