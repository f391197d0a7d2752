import { refuse } from '../../shared/api/refusals.ts';
import { CODE_TTL_SEC, type CodePurpose } from '../../shared/one-time-codes.ts';
import type { Texts } from '../i18n.ts';
import { NotifyError, type Notifier } from './index.ts';

const TEXT: Record<CodePurpose, { text: string; subject: string }> = {
  account: { text: 'api:codeTextAccount', subject: 'api:codeSubjectAccount' },
  reset: { text: 'api:codeTextReset', subject: 'api:codeSubjectReset' },
  claim: { text: 'api:codeTextClaim', subject: 'api:codeSubjectClaim' },
};

/**
 * Sends a one-time code to the account's phone, or to its e-mail when it has no phone
 * (docs/rules/accounts-and-codes.md#8-where-codes-are-sent), worded with the app's texts in `lng` (the language
 * the player asks in). A transport that fails refuses with `code_send_failed` (503): the caller can retry.
 */
export async function deliverCode(
  notifier: Notifier,
  user: { phone: string | null; email: string | null },
  purpose: CodePurpose,
  code: string,
  texts: Texts,
  lng: string,
): Promise<void> {
  const channel = user.phone ? 'sms' : 'email';
  const to = user.phone ?? user.email;
  if (!to) throw new Error('an account has a phone or an e-mail');
  const minutes = CODE_TTL_SEC / 60;
  const text = texts(TEXT[purpose].text, { code, minutes, lng });
  const subject = texts(TEXT[purpose].subject, { lng });
  try {
    await notifier.sendCode({ channel, to, purpose, code, subject, text });
  } catch (err) {
    if (err instanceof NotifyError) refuse('code_send_failed');
    throw err;
  }
}
