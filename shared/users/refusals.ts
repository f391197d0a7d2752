/** The refusals of the staff's user management (docs/decisions/064-refusals-as-data.md): each once, with its status and text. */
import { refusals } from '../api/refusal.ts';

export const usersRefusals = refusals({
  user_not_found: { status: 404, code: 'not_found', text: 'api:userNotFound', when: 'No account has this id.' },
  email_taken: { status: 400, field: 'email', text: 'api:emailTaken', when: 'Another account has this e-mail address.' },
  phone_taken: { status: 400, field: 'phone', text: 'api:phoneTaken', when: 'Another account has this phone number.' },
  phone_or_email_needed: {
    status: 400,
    field: 'non_field_errors',
    text: 'validation:userPhoneOrEmail',
    when: 'The change would leave the account with neither a phone number nor an e-mail address.',
  },
  cannot_deactivate_self: {
    status: 400,
    field: 'is_active',
    text: 'api:adminUsers.cannotDeactivateSelf',
    when: 'A staff member cannot deactivate his own account.',
  },
  staff_superuser_only: {
    status: 403,
    code: 'permission_denied',
    text: 'api:adminUsers.superuserOnly',
    when: 'Only a superuser creates staff or superusers.',
  },
  staff_accounts_superuser_only: {
    status: 403,
    code: 'permission_denied',
    text: 'api:adminUsers.staffAccountsSuperuserOnly',
    when: "Another staff member's account is a superuser's to change.",
  },
  access_superuser_only: {
    status: 403,
    code: 'permission_denied',
    text: 'api:adminUsers.accessSuperuserOnly',
    when: "Only a superuser changes an account's phone, e-mail or password.",
  },
});
