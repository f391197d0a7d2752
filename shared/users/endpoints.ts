/** The users endpoints of the API (docs/rules/api.md#3-endpoints); shared/api/contract.ts is the union of every feature's. */
import { z } from 'zod';
import { endpoint } from '../api/endpoint.ts';
import { IdParams } from '../lotteries/schemas.ts';
import { CreateUserBody, StaffUser, StaffUsersQuery, UpdateUserBody } from './schemas.ts';

export const usersEndpoints = {
  // Users, for staff (docs/rules/accounts-and-codes.md#12-staff-and-superusers) -------------------------
  staffUsers: endpoint({
    method: 'GET',
    path: '/api/v1/admin-users/',
    access: 'staff',
    tag: 'users',
    query: StaffUsersQuery,
    reply: z.array(StaffUser),
    paged: true,
    refuses: [],
    summary: 'Every user, newest first, searched by name, e-mail or phone, filtered (active, inactive, staff, superuser), paged.',
  }),
  createUser: endpoint({
    method: 'POST',
    path: '/api/v1/admin-users/',
    access: 'staff',
    tag: 'users',
    body: CreateUserBody,
    reply: StaffUser,
    status: 201,
    refuses: ['staff_superuser_only', 'email_taken', 'phone_taken'],
    summary: 'Creates an account (audited); only a superuser may create staff or superusers.',
  }),
  staffUser: endpoint({
    method: 'GET',
    path: '/api/v1/admin-users/:id/',
    access: 'staff',
    tag: 'users',
    params: IdParams,
    reply: StaffUser,
    refuses: ['user_not_found'],
    summary: 'One user as staff see him.',
  }),
  updateUser: endpoint({
    method: 'PATCH',
    path: '/api/v1/admin-users/:id/',
    access: 'staff',
    tag: 'users',
    params: IdParams,
    body: UpdateUserBody,
    reply: StaffUser,
    refuses: [
      'user_not_found',
      'staff_accounts_superuser_only',
      'access_superuser_only',
      'cannot_deactivate_self',
      'phone_or_email_needed',
      'email_taken',
      'phone_taken',
    ],
    summary: "Changes a user's name, e-mail, phone, password or active flag (audited); staff and superuser flags are set at creation only.",
  }),
} as const;
