import { refuse } from '../../shared/api/refusals.ts';

/**
 * Staff do not play (docs/rules/accounts-and-codes.md#12-staff-and-superusers, docs/decisions/047-staff-do-not-play.md):
 * an account with staff rights now, as the database has them (server/http/auth.ts read them for this call), may not buy,
 * give a TrxID, start a checkout or activate a generated ticket. A superuser is always staff (his rights are set
 * together at creation: server/users/service.ts).
 */
export const mayPlay = (rights: { is_staff: boolean }): boolean => !rights.is_staff;

/**
 * The refusal of every purchase path for staff: 403 `staff_cannot_play`. Its text is the one
 * the player pages show staff in place of their buy and activate forms (views/lotteries/staff-no-play.tsx), so it
 * lives in a namespace the pages carry.
 */
export function refuseStaffPlay(rights: { is_staff: boolean }): void {
  if (!mayPlay(rights)) refuse('staff_cannot_play');
}
