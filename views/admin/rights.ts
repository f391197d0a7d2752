import type { RouterContextProvider } from 'react-router';
import { api as contract } from '../../shared/api/contract.ts';
import { apiOf } from '../context.ts';
import { userOf } from '../guards.ts';

/**
 * Whether the staff member looking at a back-office page is a superuser, as the database has him now (his own record
 * through the API). Pages only offer or hide actions with it; the API decides (docs/rules/security.md#1-the-api-enforces-every-permission).
 */
export async function callerIsSuperuser(context: Readonly<RouterContextProvider>): Promise<boolean> {
  const r = await apiOf(context).call(contract.staffUser, { params: { id: String(userOf(context).user_id) } });
  return r.ok && r.data.is_superuser;
}
