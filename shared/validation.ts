/**
 * Form rules of the spec (§6), shared by the browser and the server. They return message KEYS,
 * not texts: the views translate them. Each validator also returns the cleaned values on success,
 * so the server stores exactly what the browser checked (trimmed, phone as 01XXXXXXXXX, e-mail lower-case).
 */
import { toAsciiDigits } from './dates.ts';
import { isCodeFormat } from './one-time-codes.ts';
import { normaliseSecret, normaliseTicket } from './ticket.ts';

export const PASSWORD_MIN = 8;
export const RESET_OTP_MAX = 6;
export const CLAIM_METHODS = ['bkash', 'nagad', 'rocket', 'bank'] as const;
export type ClaimMethod = (typeof CLAIM_METHODS)[number];

type Input = string | null | undefined;
export type FieldErrors<F extends string, K extends string> = Partial<Record<F, K>>;
export type Validation<F extends string, K extends string, V> =
  | { ok: true; value: V }
  | { ok: false; errors: FieldErrors<F, K> };

const text = (s: Input): string => (typeof s === 'string' ? s.trim() : '');
const str = (s: Input): string => (typeof s === 'string' ? s : '');
const tooShort = (password: string): boolean => [...password].length < PASSWORD_MIN;

function result<F extends string, K extends string, V>(errors: FieldErrors<F, K>, value: () => V): Validation<F, K, V> {
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, value: value() };
}

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

type IdentifierKey = 'identifierRequired' | 'identifierInvalid';
function checkIdentifier(s: Input): IdentifierKey | null {
  if (!text(s)) return 'identifierRequired';
  return normaliseIdentifier(s) ? null : 'identifierInvalid';
}

// Registration ------------------------------------------------------------------------------

export type RegistrationField = 'firstName' | 'lastName' | 'email' | 'phone' | 'password' | 'form';
export type RegistrationErrorKey = 'fillRequired' | 'phoneOrEmail' | 'phoneInvalid' | 'emailInvalid' | 'passwordMin';
export type RegistrationInput = { firstName: Input; lastName: Input; email: Input; phone: Input; password: Input };
export type Registration = {
  firstName: string;
  lastName: string;
  /** First and last name joined by a space (the signup payload's name). */
  name: string;
  email: string | null;
  phone: string | null;
  password: string;
};

/**
 * Missing first name, last name or password: those fields and `form` get 'fillRequired'.
 * Neither phone nor e-mail: both fields get 'phoneOrEmail' (and `form`, unless 'fillRequired' is there).
 */
export function validateRegistration(input: RegistrationInput): Validation<RegistrationField, RegistrationErrorKey, Registration> {
  const errors: FieldErrors<RegistrationField, RegistrationErrorKey> = {};
  const firstName = text(input.firstName), lastName = text(input.lastName), email = text(input.email), phone = text(input.phone);
  const password = str(input.password);
  for (const [field, v] of [['firstName', firstName], ['lastName', lastName], ['password', password]] as const) {
    if (!v) errors[field] = errors.form = 'fillRequired';
  }
  if (!email && !phone) {
    errors.email = errors.phone = 'phoneOrEmail';
    errors.form ??= 'phoneOrEmail';
  }
  if (phone && !normalisePhone(phone)) errors.phone = 'phoneInvalid';
  if (email && !isEmail(email)) errors.email = 'emailInvalid';
  if (password && tooShort(password)) errors.password = 'passwordMin';
  return result(errors, () => ({
    firstName,
    lastName,
    name: `${firstName} ${lastName}`,
    email: normaliseEmail(email),
    phone: normalisePhone(phone),
    password,
  }));
}

// Login and code flows -------------------------------------------------------------------------

export type LoginField = 'identifier' | 'password';
export type LoginErrorKey = IdentifierKey | 'passwordRequired';

/** Both required; no minimum length here (it is checked when a password is set, not when it is used). */
export function validateLogin(input: { identifier: Input; password: Input }): Validation<LoginField, LoginErrorKey, Identifier & { password: string }> {
  const errors: FieldErrors<LoginField, LoginErrorKey> = {};
  const idError = checkIdentifier(input.identifier);
  if (idError) errors.identifier = idError;
  if (!str(input.password)) errors.password = 'passwordRequired';
  return result(errors, () => ({ ...(normaliseIdentifier(input.identifier) as Identifier), password: str(input.password) }));
}

/** A typed code: trimmed, Bengali digits read as ASCII. */
const cleanCode = (s: Input): string => toAsciiDigits(text(s));

export type VerifyOtpField = 'identifier' | 'otp';
export type VerifyOtpErrorKey = IdentifierKey | 'otpFiveDigits';

/** The account code must be exactly 5 digits. */
export function validateVerifyOtp(input: { identifier: Input; otp: Input }): Validation<VerifyOtpField, VerifyOtpErrorKey, Identifier & { otp: string }> {
  const errors: FieldErrors<VerifyOtpField, VerifyOtpErrorKey> = {};
  const idError = checkIdentifier(input.identifier);
  if (idError) errors.identifier = idError;
  const otp = cleanCode(input.otp);
  if (!isCodeFormat('account', otp)) errors.otp = 'otpFiveDigits';
  return result(errors, () => ({ ...(normaliseIdentifier(input.identifier) as Identifier), otp }));
}

export type ForgotField = 'identifier';
export type ForgotErrorKey = IdentifierKey;

export function validateForgot(input: { identifier: Input }): Validation<ForgotField, ForgotErrorKey, Identifier> {
  const errors: FieldErrors<ForgotField, ForgotErrorKey> = {};
  const idError = checkIdentifier(input.identifier);
  if (idError) errors.identifier = idError;
  return result(errors, () => normaliseIdentifier(input.identifier) as Identifier);
}

export type ResetField = 'identifier' | 'otp' | 'newPassword' | 'confirmPassword';
export type ResetErrorKey = IdentifierKey | 'otpRequired' | 'otpMax' | 'passwordMin' | 'passwordsMismatch';
export type ResetInput = { identifier?: Input; otp: Input; newPassword: Input; confirmPassword: Input };

/**
 * Code required and at most 6 characters (the spec's rule; the server then checks it against the stored hash),
 * new password at least 8, confirmation equal. The identifier is checked only when the key is given
 * (the server passes it; the page redirects to /forgot-password without one).
 */
export function validateReset(input: ResetInput): Validation<ResetField, ResetErrorKey, { identifier: Identifier | null; otp: string; newPassword: string }> {
  const errors: FieldErrors<ResetField, ResetErrorKey> = {};
  if ('identifier' in input) {
    const idError = checkIdentifier(input.identifier);
    if (idError) errors.identifier = idError;
  }
  const otp = cleanCode(input.otp);
  if (!otp) errors.otp = 'otpRequired';
  else if (otp.length > RESET_OTP_MAX) errors.otp = 'otpMax';
  const newPassword = str(input.newPassword);
  if (tooShort(newPassword)) errors.newPassword = 'passwordMin';
  if (newPassword !== str(input.confirmPassword)) errors.confirmPassword = 'passwordsMismatch';
  return result(errors, () => ({ identifier: normaliseIdentifier(input.identifier), otp, newPassword }));
}

// Activation, prize claim, profile, contact ------------------------------------------------

export type ActivationField = 'ticketNumber' | 'secretNumber';
export type ActivationErrorKey = 'ticketNumberRequired' | 'ticketNumberInvalid' | 'secretNumberRequired';

/** Ticket number as six two-digit groups, secret exactly 16 digits (spaces and dashes allowed). */
export function validateActivation(input: { ticketNumber: Input; secretNumber: Input }): Validation<ActivationField, ActivationErrorKey, { ticketNumber: string; secretNumber: string }> {
  const errors: FieldErrors<ActivationField, ActivationErrorKey> = {};
  const ticketNumber = normaliseTicket(toAsciiDigits(text(input.ticketNumber)));
  if (!text(input.ticketNumber)) errors.ticketNumber = 'ticketNumberRequired';
  else if (!ticketNumber) errors.ticketNumber = 'ticketNumberInvalid';
  const secretNumber = normaliseSecret(toAsciiDigits(text(input.secretNumber)));
  if (!secretNumber) errors.secretNumber = 'secretNumberRequired';
  return result(errors, () => ({ ticketNumber: ticketNumber as string, secretNumber: secretNumber as string }));
}

export type ClaimField = 'paymentMethod' | 'accountNumber' | 'accountHolderName' | 'bankName' | 'branchName' | 'otp';
export type ClaimErrorKey = 'fieldRequired' | 'otpRequired' | 'otpMax';
export type ClaimInput = {
  paymentMethod: Input;
  accountNumber: Input;
  accountHolderName: Input;
  bankName?: Input;
  branchName?: Input;
  /** Leave out before the code was sent; give it (even empty) on submit. */
  otp?: Input;
};
export type ClaimDetails = {
  paymentMethod: ClaimMethod;
  accountNumber: string;
  accountHolderName: string;
  bankName: string | null;
  branchName: string | null;
  otp: string | null;
};

/** Method, account number and holder required; bank also needs bank and branch names; the code when given: required, max 6. */
export function validateClaim(input: ClaimInput): Validation<ClaimField, ClaimErrorKey, ClaimDetails> {
  const errors: FieldErrors<ClaimField, ClaimErrorKey> = {};
  const method = text(input.paymentMethod).toLowerCase();
  const isBank = method === 'bank';
  const fields = { accountNumber: text(input.accountNumber), accountHolderName: text(input.accountHolderName), bankName: text(input.bankName), branchName: text(input.branchName) };
  if (!(CLAIM_METHODS as readonly string[]).includes(method)) errors.paymentMethod = 'fieldRequired';
  for (const key of ['accountNumber', 'accountHolderName', ...(isBank ? (['bankName', 'branchName'] as const) : [])] as const) {
    if (!fields[key]) errors[key] = 'fieldRequired';
  }
  const otp = 'otp' in input ? cleanCode(input.otp) : null;
  if (otp === '') errors.otp = 'otpRequired';
  else if (otp !== null && otp.length > RESET_OTP_MAX) errors.otp = 'otpMax';
  return result(errors, () => ({
    paymentMethod: method as ClaimMethod,
    accountNumber: fields.accountNumber,
    accountHolderName: fields.accountHolderName,
    bankName: isBank ? fields.bankName : null,
    branchName: isBank ? fields.branchName : null,
    otp,
  }));
}

export type ProfileField = 'name' | 'email' | 'phone' | 'currentPassword' | 'form';
export type ProfileErrorKey = 'profileOneField' | 'phoneInvalid' | 'emailInvalid' | 'phoneOrEmail' | 'currentPasswordRequired';
export type Profile = { name: string; email: string | null; phone: string | null };
export type ProfileChanges = { password: string; name?: string; email?: string | null; phone?: string | null };

/**
 * Profile edit against the current profile: at least one of name, e-mail, phone must change,
 * phone 11 digits, e-mail valid, phone or e-mail left after the change, current password required.
 * The value holds the current password plus only the changed fields (the update payload).
 */
export function validateProfileUpdate(
  input: { name: Input; email: Input; phone: Input; currentPassword: Input },
  current: Profile,
): Validation<ProfileField, ProfileErrorKey, ProfileChanges> {
  const errors: FieldErrors<ProfileField, ProfileErrorKey> = {};
  const name = text(input.name), emailText = text(input.email), phoneText = text(input.phone);
  const email = emailText ? normaliseEmail(emailText) : null;
  const phone = phoneText ? normalisePhone(phoneText) : null;
  if (phoneText && !phone) errors.phone = 'phoneInvalid';
  if (emailText && !email) errors.email = 'emailInvalid';
  if (!emailText && !phoneText) errors.form = 'phoneOrEmail';
  if (!str(input.currentPassword)) errors.currentPassword = 'currentPasswordRequired';
  const changes: ProfileChanges = { password: str(input.currentPassword) };
  if (name && name !== current.name) changes.name = name;
  if (email !== (current.email?.toLowerCase() ?? null)) changes.email = email;
  if (phone !== (normalisePhone(current.phone) ?? null)) changes.phone = phone;
  if (Object.keys(changes).length === 1 && !errors.phone && !errors.email) errors.form ??= 'profileOneField';
  return result(errors, () => changes);
}

export type ContactField = 'name' | 'email' | 'message';
export type ContactErrorKey = 'fieldRequired' | 'emailInvalid';

export function validateContact(input: { name: Input; email: Input; message: Input }): Validation<ContactField, ContactErrorKey, { name: string; email: string; message: string }> {
  const errors: FieldErrors<ContactField, ContactErrorKey> = {};
  const name = text(input.name), email = text(input.email), message = text(input.message);
  if (!name) errors.name = 'fieldRequired';
  if (!email) errors.email = 'fieldRequired';
  else if (!isEmail(email)) errors.email = 'emailInvalid';
  if (!message) errors.message = 'fieldRequired';
  return result(errors, () => ({ name, email: email.toLowerCase(), message }));
}
