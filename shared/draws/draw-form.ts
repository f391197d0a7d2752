/**
 * The draw page's one form (views/admin/draw.tsx, docs/decisions/065-draw-form-one-schema.md): every button of the
 * page posts an `intent`, and each intent has its own fields. The page reads a post through `DrawForm`, a union
 * discriminated by `intent`, and its action is a switch over the parsed intent. Messages are keys of
 * locales/<lng>/validation.json; which text a refused field shows is the page's (docs/rules/pages.md#4-without-javascript).
 */
import { z } from 'zod';
import { toAsciiDigits } from '../dates.ts';
import { text, ticket, v } from '../fields.ts';
import { normaliseTicket } from '../ticket.ts';
import { MAX_DRAW_TICKETS, REASON_MAX } from './schemas.ts';
import { WithholdingReasonBody } from './withholding.ts';

/** A prize's or a proposal's id as a form carries it: a positive whole number of at most 15 digits. */
const formId = z.string().regex(/^[1-9]\d{0,14}$/);

/**
 * The chosen tickets the selection's form carries back and forth as hidden inputs: canonical, each once, at most as
 * many as a draw takes; anything else among them is left out (the API checks the tickets again when they are proposed).
 */
export function chosenTickets(values: readonly unknown[]): string[] {
  const out: string[] = [];
  for (const v of values) {
    const t = typeof v === 'string' ? normaliseTicket(toAsciiDigits(v)) : null;
    if (t && !out.includes(t) && out.length < MAX_DRAW_TICKETS) out.push(t);
  }
  return out;
}

const chosen = z.array(z.unknown()).default([]).transform(chosenTickets);

/** The lottery's number of winners, as the selection's form carries it; absent: as many as a draw takes. */
export const DrawWinners = z
  .string()
  .regex(/^[1-9]\d{0,5}$/)
  .transform(Number)
  .optional()
  .transform((n) => Math.min(n ?? MAX_DRAW_TICKETS, MAX_DRAW_TICKETS));

/** Why, for a withholding's proposal and its decision: the API's own rule (1–500 characters). */
const withholdingReason = WithholdingReasonBody.shape.reason;

export const DrawForm = z.discriminatedUnion('intent', [
  // A superuser proposes to withhold a published prize (docs/rules/lotteries-and-sales.md#9-the-draw).
  z.object({ intent: z.literal('withhold-prize'), prize_id: formId, reason: withholdingReason }),
  // Another staff member approves it; anyone on staff rejects it, its author too (that withdraws it).
  z.object({ intent: z.enum(['withhold-approve', 'withhold-reject']), proposal_id: formId, reason: withholdingReason }),
  // drand's signature of the announced round, as a relay shows it; the API checks it against drand's key and derives
  // the value from it (docs/rules/draws.md#4-the-beacon). A value alone is no beacon (decision 046): the API refuses it.
  z.object({ intent: z.literal('beacon'), beacon: z.string().trim().min(1, v('beaconSignatureRequired')).max(200) }),
  z.object({ intent: z.literal('verifiable-draw') }),
  // A second staff member approves winners proposed by hand; he or the author rejects them.
  z.object({ intent: z.enum(['approve', 'reject']), proposal_id: formId }),
  // The selection: every button posts the chosen tickets; Remove is a button of its own, `remove` naming the ticket.
  z.object({ intent: z.literal('clear') }),
  z.object({ intent: z.literal('remove'), remove: z.string().max(40), chosen }),
  z.object({ intent: z.literal('add'), ticket, chosen, winners: DrawWinners }),
  // Winners by hand, proposed with the reason the API requires (the same rule as DrawBody's).
  z.object({ intent: z.literal('propose'), reason: text(REASON_MAX, 'reasonRequired'), chosen }),
]);

export type DrawFormInput = z.input<typeof DrawForm>;
export type DrawIntent = z.output<typeof DrawForm>['intent'];

/**
 * A posted form as `DrawForm` reads it: every field's first text (`chosen`: all of them). A Remove button posts no
 * intent, only `remove`: its intent is `remove`.
 */
export function drawFormInput(form: FormData): Record<string, unknown> {
  const input: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [name, value] of form.entries()) {
    if (typeof value !== 'string' || name === 'chosen' || name in input) continue;
    input[name] = value;
  }
  input.chosen = form.getAll('chosen').filter((v) => typeof v === 'string');
  if (input.intent === undefined && typeof input.remove === 'string') input.intent = 'remove';
  return input;
}
