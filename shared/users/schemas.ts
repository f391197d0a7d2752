/**
 * Staff managing users (docs/rules/accounts-and-codes.md#12-staff-and-superusers): the list's query, the create and
 * change requests and the user as staff see him. Built from the field rules of shared/fields.ts (the phone, e-mail
 * and new-password rules of sign-up); messages are keys of locales/<lng>/validation.json.
 */
import { z } from 'zod';
import { email, NAME_MAX, newPassword, optional, PASSWORD_MAX, phone, text, v } from '../fields.ts';
import { Paging } from '../lotteries/schemas.ts';

export const USER_FILTERS = ['all', 'active', 'inactive', 'staff', 'superuser'] as const;
export type UserFilter = (typeof USER_FILTERS)[number];

/** `GET /api/v1/admin-users/`: paged, searched by name, e-mail or phone, filtered. */
export const StaffUsersQuery = Paging.extend({
  search: optional(text(100)),
  filter: z.enum(USER_FILTERS).default('all'),
});

/** A name that must be there: missing, null and blank all say "Name is required". */
const name = z.preprocess((x) => x ?? '', text(NAME_MAX, 'userNameRequired'));

/** "Either email or phone is required" when the request leaves the user neither. */
function phoneOrEmail(x: { email?: string | null; phone?: string | null }, ctx: z.RefinementCtx): void {
  if (!x.email && !x.phone) ctx.addIssue({ code: 'custom', message: v('userPhoneOrEmail'), path: [] });
}

/**
 * `POST /api/v1/admin-users/`: a new account, active unless said. Values are trimmed (the password is taken as typed,
 * as at sign-up) and must meet sign-up's rules. Only a superuser may ask for `is_staff` or `is_superuser` (the API
 * checks the caller in the database).
 */
export const CreateUserBody = z
  .strictObject({
    name,
    email: optional(email),
    phone: optional(phone),
    password: z
      .preprocess(
        (x) => x ?? '',
        z
          .string()
          .max(PASSWORD_MAX)
          .refine((p) => p.length > 0, v('userPasswordRequired')),
      )
      .pipe(newPassword),
    is_active: z.boolean().default(true),
    is_staff: z.boolean().default(false),
    is_superuser: z.boolean().default(false),
  })
  .superRefine(phoneOrEmail);

/**
 * `PATCH /api/v1/admin-users/{id}/`: the fields that change; one left out stays as it is. An e-mail or phone sent blank
 * or null is removed (the account keeps one of them); a blank password keeps the current one. `is_staff` and
 * `is_superuser` are set at creation only: sending them is an unknown field.
 */
export const UpdateUserBody = z
  .strictObject({
    name: name.optional(),
    email: optional(email).optional(),
    phone: optional(phone).optional(),
    is_active: z.boolean().optional(),
    password: optional(newPassword).optional(),
  })
  .superRefine((x, ctx) => {
    if (x.email === null && x.phone === null) phoneOrEmail(x, ctx);
  });

/** A user as staff see him; `prize_money` is the sum of his prizes in published results, whole taka. */
export const StaffUser = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  phone_confirmed: z.boolean(),
  email_confirmed: z.boolean(),
  is_active: z.boolean(),
  is_staff: z.boolean(),
  is_superuser: z.boolean(),
  date_joined: z.string(),
  /** `YYYY-MM-DD` as given at sign-up; null for accounts made before it was asked and for those staff made. */
  date_of_birth: z.string().nullable(),
  prize_money: z.number().int(),
});
