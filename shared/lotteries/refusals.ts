/** The refusals of the lotteries endpoints (docs/decisions/064-refusals-as-data.md): each once, with its status and text. */
import { refusals, type RefusalSpec } from '../api/refusal.ts';
import { formatDate } from '../dates.ts';
import { NUMBERS_FIELDS, TICKETS_FIELDS } from './schemas.ts';

/** One refusal per field, each under its own field (`<field>_<suffix>`), all answering the same code. */
const perField = <F extends string, S extends string>(
  fields: readonly F[],
  suffix: S,
  spec: Omit<RefusalSpec, 'field'>,
): Record<`${F}_${S}`, RefusalSpec> =>
  Object.fromEntries(fields.map((f) => [`${f}_${suffix}`, { ...spec, field: f }])) as unknown as Record<`${F}_${S}`, RefusalSpec>;

export const lotteriesRefusals = refusals({
  lottery_not_found: {
    status: 404,
    code: 'not_found',
    text: 'api:lotteryNotFound',
    when: 'No lottery has this id (for a player, no published one).',
  },
  // The staff's lottery form (docs/rules/lotteries-and-sales.md#1-lottery-fields) ------------------------------------
  rollover_target_invalid: {
    status: 400,
    field: 'rollover_to',
    text: 'api:rolloverTargetInvalid',
    when: 'The rollover target is not a numbers-draw lottery that is not drawn yet, other than this one.',
  },
  ...perField([...NUMBERS_FIELDS, 'rollover_to'] as const, 'numbers_kind_only', {
    status: 400,
    code: 'numbers_kind_only',
    text: 'validation:numbersKindOnly',
    when: 'A field of a numbers-draw lottery given for a winning-tickets lottery.',
  }),
  ...perField(TICKETS_FIELDS, 'tickets_kind_only', {
    status: 400,
    code: 'tickets_kind_only',
    text: 'validation:ticketsKindOnly',
    when: 'A field of a winning-tickets lottery given for a numbers-draw lottery.',
  }),
  ...perField([...NUMBERS_FIELDS, ...TICKETS_FIELDS] as const, 'kind_needs', {
    status: 400,
    code: 'kind_needs_field',
    text: 'validation:required',
    when: 'The lottery changes kind and a field of its new kind is not given.',
  }),
  lottery_end_before_start: {
    status: 400,
    field: 'end_date',
    text: 'validation:endBeforeStart',
    when: 'The change would end the sales before they start.',
  },
  lottery_winners_over_tickets: {
    status: 400,
    field: 'winners',
    text: 'validation:winnersOverTickets',
    when: 'The change would leave more winners than tickets on sale.',
  },
  total_tickets_below_held: {
    status: 400,
    field: 'total_tickets',
    text: 'api:totalTicketsBelowHeld',
    when: 'Fewer tickets on sale than are already sold or held.',
  },
  unpublish_reason_only_then: {
    status: 400,
    field: 'results_reason',
    text: 'api:unpublishReasonOnlyThen',
    when: 'A reason given for a change that does not take the results back.',
  },
  unpublish_reason_required: {
    status: 400,
    field: 'results_reason',
    text: 'api:unpublishReasonRequired',
    when: 'Results taken back without a reason.',
  },
  unpublish_superuser_only: {
    status: 403,
    code: 'permission_denied',
    text: 'api:unpublishSuperuserOnly',
    when: 'Only a superuser takes back the results of a drawn lottery.',
  },
  lottery_kind_rollover: {
    status: 409,
    code: 'prizes_fixed',
    text: 'api:lotteryKindRollover',
    when: 'A jackpot was rolled over into this numbers-draw lottery: its kind cannot change.',
  },
  lottery_prizes_fixed: {
    status: 409,
    code: 'prizes_fixed',
    text: 'api:lotteryPrizesFixed',
    when: "Tickets are sold or held: the kind and a numbers-draw lottery's prizes can no longer change.",
  },
  numbers_results_need_draw: {
    status: 409,
    code: 'not_drawn',
    text: 'api:numbersResultsNeedDraw',
    when: "A numbers-draw lottery's results are published before its numbers are drawn.",
  },
  lottery_drawn_prize_fixed: {
    status: 409,
    code: 'already_drawn',
    text: 'api:lotteryDrawnPrizeFixed',
    when: 'The lottery is drawn: its total prize, its rollover target and (fewer) winners can no longer change.',
  },
  // The draw's announcement (server/draws/commitments.ts announceDraw), which only the lottery form reaches.
  // A ticket's status once the lottery closes (server/lotteries/freeze.ts, docs/rules/lotteries-and-sales.md#8-transaction-states) -----
  tickets_frozen: {
    status: 409,
    text: 'api:ticketsFrozen',
    when: "The lottery's sales closed: its tickets are frozen for the draw and no ticket's status changes any more.",
    format: ({ at }, lng) => ({ at: formatDate(String(at), lng, { withTime: true }) ?? at }),
  },
  confirm_results_published: {
    status: 409,
    code: 'results_published',
    text: 'api:resultsPublishedNoApproval',
    when: "The lottery's results are out: its purchases can no longer be confirmed.",
  },
  confirm_sales_closed: {
    status: 409,
    code: 'sales_closed',
    text: 'api:salesClosedNoApproval',
    when: "The lottery's sales closed (taken off sale or not started): its purchases can no longer be confirmed.",
  },
});
