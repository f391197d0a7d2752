/**
 * The rules of single fields, written once and composed into the request schemas of every feature
 * (shared/<feature>/schemas.ts). Messages are keys of locales/<lng>/validation.json: the API translates them
 * into the caller's language, the pages show them through their translator (docs/rules/accounts-and-codes.md).
 */
import { z } from 'zod';
import { birthDateProblem, dhakaToday } from './accounts/age.ts';
import { toAsciiDigits } from './dates.ts';
import { isEmail, normaliseIdentifier, normalisePhone } from './identifiers.ts';
import { parseWholeTaka } from './money.ts';
import { CODE_RULES, type CodePurpose } from './one-time-codes.ts';
import { normaliseTicket } from './ticket.ts';

export const VALIDATION_KEYS = [
  'required',
  'blank',
  'wrongType',
  'tooSmall',
  'tooBig',
  'invalid',
  'unknownField',
  'expectedObject',
  'controlCharacters',
  'invisibleCharacters',
  'fillRequired',
  'fieldRequired',
  'phoneOrEmail',
  'phoneInvalid',
  'emailInvalid',
  'dateOfBirthRequired',
  'dateOfBirthInvalid',
  'underAge',
  'passwordMin',
  'passwordRequired',
  'passwordsMismatch',
  'identifierRequired',
  'identifierInvalid',
  'otpRequired',
  'otpMax',
  'otpSixDigits',
  'pictureInvalid',
  'ticketInvalid',
  'typedTicketNotNumbers',
  'typedTicketTooFew',
  'typedTicketTooMany',
  'typedTicketMainOutOfRange',
  'typedTicketLastOutOfRange',
  'typedTicketRepeated',
  'trxIdInvalid',
  'nidInvalid',
  'amountInvalid',
  'paymentMethodInvalid',
  'paymentMethodSoon',
  'payoutMethodInvalid',
  'accountNumberInvalid',
  'countInvalid',
  'instantInvalid',
  'endBeforeStart',
  'winnersOverTickets',
  'profileNothingChanged',
  'phoneOrEmailKept',
  'currentPasswordRequired',
  'identityIncomplete',
  'identityNidInvalid',
  'identityPhoneInvalid',
  'ticketNumberRequired',
  'secretNumberRequired',
  'secretNumberInvalid',
  'quantityRange',
  'userNameRequired',
  'userPhoneOrEmail',
  'beaconSignatureRequired',
  'beaconValueRefused',
  'userPasswordRequired',
  'reasonRequired',
  'lotteryRequired',
  'lotteryKindInvalid',
  'numbersKindOnly',
  'drawDaysRequired',
  'drawTimeInvalid',
  'luckyBoth',
  'runDrawsInvalid',
  'runLinesInvalid',
  'ticketsKindOnly',
  'spendLimitInvalid',
  'exclusionPeriodInvalid',
  'timeOutPeriodInvalid',
  'exclusionConfirm',
  'realityIntervalInvalid',
  'dateInvalid',
  'notificationIdInvalid',
  'messageSettingInvalid',
  'messageLanguageInvalid',
  'pushEndpointInvalid',
  'pushKeyInvalid',
  'pushLabelInvalid',
] as const;
export type ValidationKey = (typeof VALIDATION_KEYS)[number];

/** A message of a schema: the translation key `validation:<key>`. */
export const v = (key: ValidationKey) => `validation:${key}` as const;

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const NAME_MAX = 100;
export const EMAIL_MAX = 254;

/** C0 and C1 control characters other than tab, line feed and carriage return: NUL, BEL, ESC, DEL, … */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/u;
/**
 * Characters a reader cannot see: every format character (Unicode category Cf: the direction marks and the
 * bidirectional controls U+200E/U+200F, U+061C, U+202A–U+202E, U+2066–U+2069; the zero-width U+200B–U+200D, U+2060,
 * U+FEFF; the soft hyphen …), tab and line breaks, the line and paragraph separators, lone surrogates, and the
 * fillers that render as nothing (U+034F, U+115F, U+1160, U+17B4, U+17B5, U+3164, U+FFA0).
 */
const INVISIBLE = /[\p{Cf}\p{Zl}\p{Zp}\p{Cs}\t\n\r]/u;
const FILLERS = new Set(['\u034f', '\u115f', '\u1160', '\u17b4', '\u17b5', '\u3164', '\uffa0']);
/** Bengali writing's joiners: ZWNJ (U+200C) and ZWJ (U+200D) shape a conjunct, as in র‍্যাব. */
const JOINERS = new Set(['\u200c', '\u200d']);
const BENGALI = /^\p{Script=Bengali}$/u;

/**
 * The one rule of characters in a name or free text (docs/rules/security.md#10-invisible-characters): `control` when
 * `s` holds a control character, `invisible` when it holds one a reader cannot see, null when it holds neither.
 * ZWNJ and ZWJ are allowed only directly between two Bengali-script characters; `multiline` allows line breaks
 * (line feed, carriage return) and nothing else more.
 */
export function hiddenCharacter(s: string, multiline = false): 'control' | 'invisible' | null {
  const chars = [...s];
  let found: 'control' | 'invisible' | null = null;
  chars.forEach((c, i) => {
    if (found === 'control') return;
    if (CONTROL.test(c)) found = 'control';
    else if (multiline && (c === '\n' || c === '\r')) return;
    else if (JOINERS.has(c)) {
      if (!BENGALI.test(chars[i - 1] ?? '') || !BENGALI.test(chars[i + 1] ?? '')) found = 'invisible';
    } else if (INVISIBLE.test(c) || FILLERS.has(c)) found = 'invisible';
  });
  return found;
}

function textWith(max: number, multiline: boolean, required?: ValidationKey) {
  const s = z
    .string()
    .trim()
    .max(max)
    .superRefine((x, ctx) => {
      const hidden = hiddenCharacter(x, multiline);
      if (hidden) ctx.addIssue({ code: 'custom', message: v(hidden === 'control' ? 'controlCharacters' : 'invisibleCharacters') });
    });
  return required ? s.refine((x) => x.length > 0, v(required)) : s;
}

/**
 * A one-line string field (a name, an address, a reason, a search): trimmed, at most `max` characters, no control or
 * invisible character (`hiddenCharacter`); `required` names the message when empty.
 */
export const text = (max: number, required?: ValidationKey) => textWith(max, false, required);

/** A free text of several lines (a description, a message, a note): as `text`, with line breaks allowed. */
export const freeText = (max: number, required?: ValidationKey) => textWith(max, true, required);

/** An optional form field: absent, null and blank all mean "not given" (null). */
export const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((x) => (x === undefined || (typeof x === 'string' && x.trim() === '') ? null : x), schema.nullable());

/** Bangladeshi mobile number, stored as `01XXXXXXXXX`; `invalid` names the message of a number that is not one. */
export const phoneWith = (invalid: ValidationKey) =>
  text(20).transform((s, ctx) => {
    const p = normalisePhone(s);
    if (p) return p;
    ctx.addIssue({ code: 'custom', message: v(invalid) });
    return z.NEVER;
  });
export const phone = phoneWith('phoneInvalid');

/**
 * A date of birth (docs/rules/accounts-and-codes.md#2-sign-up): `YYYY-MM-DD` as a date input sends it, or day first as
 * typed in Bangladesh (`15/06/1995`, `15-06-1995`, `15.06.1995`), Bengali digits read as ASCII; a day that exists, not
 * before 1900 nor after today, and 18 or older today in Dhaka. Stored as `YYYY-MM-DD`.
 */
export const dateOfBirth = text(10, 'dateOfBirthRequired').transform((typed, ctx) => {
  const s = toAsciiDigits(typed);
  const dayFirst = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(s);
  const iso = dayFirst ? `${dayFirst[3]}-${dayFirst[2]?.padStart(2, '0')}-${dayFirst[1]?.padStart(2, '0')}` : s;
  const problem = birthDateProblem(iso, dhakaToday());
  if (!problem) return iso;
  ctx.addIssue({ code: 'custom', message: v(problem === 'underAge' ? 'underAge' : 'dateOfBirthInvalid') });
  return z.NEVER;
});

/** E-mail address, stored lower-case. */
export const email = text(EMAIL_MAX).transform((s, ctx) => {
  if (isEmail(s)) return s.toLowerCase();
  ctx.addIssue({ code: 'custom', message: v('emailInvalid') });
  return z.NEVER;
});

/** Phone number or e-mail address (login, verification, reset), in its stored form. */
export const identifier = text(EMAIL_MAX, 'identifierRequired').transform((s, ctx) => {
  const id = normaliseIdentifier(s);
  if (id) return id.identifier;
  ctx.addIssue({ code: 'custom', message: v('identifierInvalid') });
  return z.NEVER;
});

/** A new password: at least PASSWORD_MIN characters (counted as characters, not UTF-16 units). */
export const newPassword = z
  .string()
  .max(PASSWORD_MAX)
  .refine((p) => [...p].length >= PASSWORD_MIN, v('passwordMin'));

/** A password being used (login, confirming a change): required, no minimum (that applies when it is set). */
export const passwordGiven = (required: ValidationKey) =>
  z
    .string()
    .max(PASSWORD_MAX)
    .refine((p) => p.length > 0, v(required));
export const currentPassword = passwordGiven('passwordRequired');

/** A one-time code of the purpose's length (6 digits, docs/rules/accounts-and-codes.md#7-one-time-codes); Bengali digits are read as ASCII. */
export const code = (purpose: CodePurpose) => {
  const { length } = CODE_RULES[purpose];
  return text(16, 'otpRequired')
    .transform((s) => toAsciiDigits(s))
    .refine((s) => s.length <= length, v('otpMax'))
    .refine((s) => s.length > length || new RegExp(`^[0-9]{${length}}$`).test(s), v('otpSixDigits'));
};

/** A union's own message: "required" when nothing was sent, else `otherwise` (zod's is a generic "invalid"). */
const unionMessage = (otherwise: ValidationKey) => (issue: { input?: unknown }) =>
  issue.input === undefined ? v('required') : v(otherwise);

/** The id of a thing named in a body (a lottery, a user): a positive whole number, sent as a number or as digits. */
export const id = z.union(
  [
    z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
    z
      .string()
      .regex(/^[1-9]\d{0,15}$/)
      .transform(Number),
  ],
  { error: unionMessage('invalid') },
);

/** A ticket as typed or sent (docs/rules/tickets.md#3-accepted-input-and-normalisation), in its canonical form `05-12-23-34-45-07`. */
export const ticket = text(40).transform((s, ctx) => {
  const t = normaliseTicket(toAsciiDigits(s));
  if (t) return t;
  ctx.addIssue({ code: 'custom', message: v('ticketInvalid') });
  return z.NEVER;
});

/** The bKash transaction ID (TrxID) the player received: 8–20 letters and digits, stored upper-case. */
export const TRX_ID = /^[A-Z0-9]{8,20}$/;
export const trxId = text(40).transform((s, ctx) => {
  const id = toAsciiDigits(s).toUpperCase();
  if (TRX_ID.test(id)) return id;
  ctx.addIssue({ code: 'custom', message: v('trxIdInvalid') });
  return z.NEVER;
});

/** A Bangladeshi national ID number: 10, 13 or 17 digits (spaces and dashes dropped), or '' for none. */
export const NID_DIGITS = /^(\d{10}|\d{13}|\d{17})$/;
export const nidWith = (invalid: ValidationKey) =>
  text(40).transform((s, ctx) => {
    const digits = toAsciiDigits(s).replace(/[\s-]/g, '');
    if (digits === '' || NID_DIGITS.test(digits)) return digits;
    ctx.addIssue({ code: 'custom', message: v(invalid) });
    return z.NEVER;
  });
export const nid = nidWith('nidInvalid');

/** An amount in whole taka, at least 1 (docs/rules/money-and-time.md): 100, "100" or "100.00"; never a fraction. */
export const wholeTaka = z.union([z.number(), z.string().max(24)], { error: unionMessage('amountInvalid') }).transform((x, ctx) => {
  const n = parseWholeTaka(x);
  if (n !== null && n >= 1) return n;
  ctx.addIssue({ code: 'custom', message: v('amountInvalid') });
  return z.NEVER;
});

/**
 * "Give a phone number or an e-mail address" when neither is there: for the whole request, and on a form also
 * under both fields so that both inputs are marked.
 */
export function requirePhoneOrEmail(
  value: { phone?: string | null; email?: string | null },
  ctx: z.RefinementCtx,
  o: { markFields: boolean },
): void {
  if (value.phone || value.email) return;
  for (const path of [[], ...(o.markFields ? [['phone'], ['email']] : [])])
    ctx.addIssue({ code: 'custom', message: v('phoneOrEmail'), path });
}

/** A problem found by a schema, as a message key and its variables (`{{max}}`…). */
export type Problem = { key: string; vars?: Record<string, unknown> };

/**
 * What to tell about one zod issue: a schema's own message (a `validation:` key) as it is, zod's generic ones
 * mapped to the keys of validation.json. The API and the pages both read issues through this; parse with
 * `{ reportInput: true }` so that a value of the wrong type is told apart from a missing one.
 */
export function problemOf(issue: z.core.$ZodIssue): Problem {
  if (issue.message.startsWith('validation:')) {
    const params = (issue as { params?: Record<string, unknown> }).params;
    return params ? { key: issue.message, vars: params } : { key: issue.message };
  }
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? { key: v('required') } : { key: v('wrongType'), vars: { expected: issue.expected } };
    case 'too_small':
      return issue.origin === 'string' && issue.minimum === 1 ? { key: v('blank') } : { key: v('tooSmall'), vars: { min: issue.minimum } };
    case 'too_big':
      return { key: v('tooBig'), vars: { max: issue.maximum } };
    case 'unrecognized_keys':
      return { key: v('unknownField') };
    default:
      return { key: v('invalid') };
  }
}

/**
 * Issues → `{field: [problems]}` (the first path segment names the field; root problems go under
 * `non_field_errors`, unknown keys under their own names). A value of the wrong type gets that one problem,
 * not also the checks zod runs after it.
 */
export function problemsByField(error: z.ZodError): Record<string, Problem[]> {
  // No prototype: a body key like "__proto__" is then an ordinary field name, not Object.prototype.
  const out: Record<string, Problem[]> = Object.create(null) as Record<string, Problem[]>;
  const wrongType = new Set<string>();
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const k of issue.keys) (out[k] ??= []).push({ key: v('unknownField') });
      continue;
    }
    const field = issue.path.length ? String(issue.path[0]) : 'non_field_errors';
    if (wrongType.has(field)) continue;
    if (issue.code === 'invalid_type') wrongType.add(field);
    (out[field] ??= []).push(problemOf(issue));
  }
  return out;
}
