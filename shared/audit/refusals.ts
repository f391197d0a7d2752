/** The refusals of the audit log (docs/decisions/064-refusals-as-data.md): each once, with its status and text. */
import { refusals } from '../api/refusal.ts';

export const auditRefusals = refusals({
  audit_superuser_only: {
    status: 403,
    code: 'permission_denied',
    text: 'api:superuserOnly',
    when: 'The audit log is read by superusers only.',
  },
});
