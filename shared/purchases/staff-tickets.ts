/**
 * Staff do not play (docs/rules/accounts-and-codes.md#12-staff-and-superusers): the tickets staff accounts hold all the
 * same (bought before the rule, or before the account became staff), as a superuser reviews them.
 */
import { z } from 'zod';
import { TRANSACTION_STATUSES, TRANSACTION_TYPES } from './schemas.ts';

/** One transaction of a staff account, with its lottery and status. */
export const StaffHeldTicket = z.object({
  id: z.number().int(),
  ticket: z.string(),
  status: z.enum(TRANSACTION_STATUSES),
  /** With the status, what the page calls its state (shared/purchases/states.ts ticketState). */
  trx_id: z.string().nullable(),
  transaction_type: z.enum(TRANSACTION_TYPES),
  amount: z.number().int(),
  created_at: z.string(),
  holder: z.object({ id: z.number().int(), name: z.string(), is_superuser: z.boolean() }),
  lottery: z.object({ id: z.number().int(), name: z.string(), name_bn: z.string(), is_result_published: z.boolean() }),
});
