/** The dashboard endpoints of the API (docs/rules/api.md#3-endpoints); shared/api/contract.ts is the union of every feature's. */
import { endpoint } from '../api/endpoint.ts';
import { Dashboard } from './schemas.ts';

export const dashboardEndpoints = {
  dashboard: endpoint({
    method: 'GET',
    path: '/api/v1/admin/dashboard/',
    access: 'staff',
    tag: 'lotteries',
    reply: Dashboard,
    refuses: [],
    summary:
      'The back office dashboard: users, active lotteries, revenue and tickets sold (approved), what waits for staff, recent lotteries and transactions.',
  }),
} as const;
