import type { TFunction } from 'i18next';
import { CODE_TTL_SEC, type CodePurpose } from '../../shared/one-time-codes.ts';
import { ApiError } from '../http/errors.ts';
import { NotifyError, type Notifier } from './index.ts';

const TEXT: Record<CodePurpose, { text: string; subject: string }> = {
  account: { text: 'api:codeTextAccount', subject: 'api:codeSubjectAccount' },
  reset: { text: 'api:codeTextReset', subject: 'api:codeSubjectReset' },
  claim: { text: 'api:codeTextClaim', subject: 'api:codeSubjectClaim' },
};

/**
 * Sends a one-time code to the account's phone, or to its e-mail when it has no phone
 * (docs/rules/accounts-and-codes.md#8-where-codes-are-sent), in the caller's language. A transport that fails is a
 * 503 the caller can retry.
 */
export async function deliverCode(
  notifier: Notifier,
  user: { phone: string | null; email: string | null },
  purpose: CodePurpose,
  code: string,
  ctx: { t: TFunction; lng: string },
): Promise<void> {
  const channel = user.phone ? 'sms' : 'email';
  const to = user.phone ?? user.email;
  if (!to) throw new Error('an account has a phone or an e-mail');
  const minutes = CODE_TTL_SEC / 60;
  const text = ctx.t(TEXT[purpose].text, { code, minutes, lng: ctx.lng });
  const subject = ctx.t(TEXT[purpose].subject, { lng: ctx.lng });
  try {
    await notifier.sendCode({ channel, to, purpose, code, subject, text });
  } catch (err) {
    if (err instanceof NotifyError) throw ApiError.detail(503, ctx.t('api:sendFailed'), 'send_failed');
    throw err;
  }
}
