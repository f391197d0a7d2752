/** Checks of a draw's chosen tickets (docs/rules/lotteries-and-sales.md#9-the-draw); the prize split is splitPrize of shared/money.ts. */

/** The first ticket that appears twice in the list, if any (tickets in canonical form). */
export function firstDuplicate(tickets: readonly string[]): string | null {
  const seen = new Set<string>();
  for (const t of tickets) {
    if (seen.has(t)) return t;
    seen.add(t);
  }
  return null;
}

/** Who holds a chosen ticket: the player of its purchase and, for a generated ticket, who activated it. */
export type TicketHolders = { ticket: string; user_id: number; activated_by: number | null };

/**
 * The first chosen ticket (in the order given) held by one of these staff members, and which of them holds it: nobody
 * chooses, or approves, a ticket of his own as a winner (docs/rules/lotteries-and-sales.md#9-the-draw). Null when none.
 */
export function ownTicket(chosen: readonly TicketHolders[], staff: readonly number[]): { ticket: string; holder: number } | null {
  for (const c of chosen) for (const s of staff) if (c.user_id === s || c.activated_by === s) return { ticket: c.ticket, holder: s };
  return null;
}
