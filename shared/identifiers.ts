/**
 * Phone numbers and e-mail addresses as the product reads them (docs/rules/accounts-and-codes.md): what a player
 * may type, and the one stored form (phone `01XXXXXXXXX`, e-mail lower-case).
 */
import { toAsciiDigits } from './dates.ts';

type Input = string | null | undefined;
const text = (s: Input): string => (typeof s === 'string' ? s.trim() : '');

/**
 * Bangladeshi mobile number → `01XXXXXXXXX` (11 digits). Accepts `+880…`, `880…`, `00880…`,
 * spaces, dashes, dots, brackets and Bengali digits; null otherwise.
 */
export function normalisePhone(s: Input): string | null {
  const compact = toAsciiDigits(text(s)).replace(/[\s\-().]/g, '');
  const m = /^(?:\+88|0088|88)?(01\d{9})$/.exec(compact);
  return m ? (m[1] as string) : null;
}

const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;

/** Pragmatic e-mail check: local@domain.tld, no spaces, no empty domain labels, at most 254 characters. */
export function isEmail(s: Input): boolean {
  const t = text(s);
  return t.length <= 254 && EMAIL.test(t);
}

/** Trimmed and lower-cased e-mail, or null if it is not one. */
export const normaliseEmail = (s: Input): string | null => (isEmail(s) ? text(s).toLowerCase() : null);

/** Whether a login/recovery identifier is an e-mail or a phone number (anything with '@' is read as e-mail). */
export function identifierKind(s: Input): 'phone' | 'email' | null {
  const t = text(s);
  if (t.includes('@')) return isEmail(t) ? 'email' : null;
  return normalisePhone(t) ? 'phone' : null;
}

export type Identifier = { kind: 'phone' | 'email'; identifier: string };

/** The identifier in its stored form (01XXXXXXXXX or lower-case e-mail), or null. */
export function normaliseIdentifier(s: Input): Identifier | null {
  const kind = identifierKind(s);
  if (kind === 'phone') return { kind, identifier: normalisePhone(s) as string };
  if (kind === 'email') return { kind, identifier: normaliseEmail(s) as string };
  return null;
}
