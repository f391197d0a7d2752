import { holdEnd } from '../../shared/claims/payout.ts';
import { formatDate } from '../../shared/dates.ts';
import type { Language } from '../../shared/i18n.ts';
import type { Texts } from '../i18n.ts';
import { NotifyError, type Notifier } from './index.ts';

/** What changed of an account: its phone, its e-mail, its password (set by staff). */
export type AccountChange = { phone: boolean; email: boolean; password: boolean };

export const accessChanged = (c: AccountChange): boolean => c.phone || c.email || c.password;

/**
 * The notice of a change of a player's phone, e-mail or (by staff) password, sent to every phone and e-mail the
 * account had before it: the old phone learns that the number moved, the e-mail that the phone did
 * (docs/rules/accounts-and-codes.md#11-profile, #12-staff-and-superusers). In the language of the account's messages
 * (docs/rules/messages.md), as the winners' notice. It names what changed, when, and until when claims and payouts are
 * held. A message the transport could not send is left (the transport logged why): the change stands, and the hold
 * protects the prize whether or not the notice arrived.
 */
export async function sendAccountChangeNotice(
  notifier: Notifier,
  texts: Texts,
  before: { phone: string | null; email: string | null; language: Language },
  change: AccountChange,
  o: { at: string | Date; byStaff: boolean },
): Promise<void> {
  const until = holdEnd(o.at).toISOString();
  const lng = before.language;
  const items = (['phone', 'email', 'password'] as const).filter((k) => change[k]).map((k) => texts(`api:accountNotice.${k}`, { lng }));
  const vars = {
    lng,
    what: new Intl.ListFormat(lng, { type: 'conjunction' }).format(items),
    date: formatDate(o.at, lng, { withTime: true }) ?? String(o.at),
    until: formatDate(until, lng, { withTime: true }) ?? until,
  };
  const msg = {
    purpose: 'account_changed' as const,
    subject: texts('api:accountNotice.subject', vars),
    text: texts(o.byStaff ? 'api:accountNotice.textByStaff' : 'api:accountNotice.textBySelf', vars),
  };
  const to = [
    ...(before.phone ? [{ channel: 'sms' as const, to: before.phone }] : []),
    ...(before.email ? [{ channel: 'email' as const, to: before.email }] : []),
  ];
  for (const r of to) {
    try {
      await notifier.send({ ...msg, ...r });
    } catch (err) {
      if (!(err instanceof NotifyError)) throw err;
    }
  }
}
