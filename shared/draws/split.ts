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
