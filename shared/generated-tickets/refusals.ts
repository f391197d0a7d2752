/** The refusals of the generated tickets endpoints (docs/decisions/064-refusals-as-data.md): each once, with its status and text. */
import { refusals } from '../api/refusal.ts';

export const generatedTicketsRefusals = refusals({
  // Staff make, delete and export them (docs/rules/tickets.md#6-generated-tickets) ----------------------------------
  generated_lottery_not_found: {
    status: 400,
    code: 'lottery_not_found',
    field: 'lottery_id',
    text: 'api:lotteryNotFound',
    when: 'No lottery has this id.',
  },
  generated_lottery_ended: {
    status: 409,
    code: 'lottery_ended',
    text: 'lottery:reason.ended',
    when: "The lottery's sales have ended (its end date passed, or it was drawn): no ticket is generated.",
  },
  generated_tickets_left: {
    status: 409,
    code: 'sold_out',
    text: 'activate:api.capacity',
    when: 'Fewer combinations are left in the lottery than asked for (the text says how many).',
  },
  generated_ticket_not_found: {
    status: 404,
    code: 'not_found',
    text: 'activate:api.notFound',
    when: 'No generated ticket has this id.',
  },
  ticket_activated: {
    status: 409,
    text: 'activate:api.deleteActivated',
    when: 'The generated ticket was activated: it is a sale and is not deleted.',
  },
  export_lottery_not_found: { status: 404, code: 'not_found', text: 'api:lotteryNotFound', when: 'No lottery has this id.' },
  nothing_to_export: {
    status: 409,
    text: 'api:nothingToExport',
    when: 'No generated ticket of the lottery that is not activated matches the search.',
  },

  // A player activates one (docs/rules/tickets.md#7-activating-a-generated-ticket) ----------------------------------
  activation_invalid: {
    status: 400,
    text: 'activate:api.invalid',
    when: 'The ticket number and secret are not a pair that can be activated (whichever half is wrong, or another player activated it).',
  },
  activation_lottery_ended: {
    status: 409,
    code: 'lottery_ended',
    text: 'activate:api.closed',
    when: "The ticket's lottery is no longer on sale.",
  },
  activation_ticket_taken: {
    status: 409,
    code: 'ticket_taken',
    text: 'api:combinationTakenMeanwhile',
    when: 'Someone else holds this combination in the meantime.',
  },
});
