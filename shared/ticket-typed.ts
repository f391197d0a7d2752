/**
 * A ticket as people type it into "Check my numbers" (docs/rules/tickets.md#9-a-ticket-as-people-type-it): six
 * numbers in the order typed, the last one typed being the last number; the five main numbers in any order; any run of
 * spaces or punctuation between them; leading zeros or not; ASCII or Bengali digits (০–৯).
 */
import { toAsciiDigits } from './dates.ts';
import { formatTicket, isLastNumber, isMainNumber, MAIN_COUNT, type Ticket } from './ticket.ts';

/** Why a typed text is not a ticket; each has its own message (`validation:typedTicket.<error>`). */
export const TYPED_TICKET_ERRORS = ['notNumbers', 'tooFew', 'tooMany', 'mainOutOfRange', 'lastOutOfRange', 'repeated'] as const;
export type TypedTicketError = (typeof TYPED_TICKET_ERRORS)[number];

/** Anything but a digit, a space or a punctuation mark or symbol (a letter, a control character) makes it not numbers. */
const ONLY_NUMBERS = /^[\d\s\p{P}\p{S}]*$/u;
/** A number is a run of at most 3 digits: "005" is 5, "0005" (or a run glued to another) is nobody's ticket number. */
const NUMBER = /^\d{1,3}$/;

/**
 * Reads `5 11 12 34 51 2`, `51,34,12,11,5,2`, `05-11-12-34-51-02`, `০৫ ১১ ১২ ৩৪ ৫১ ২`: the canonical ticket, or the first
 * thing wrong with it (too few or too many numbers first, then the range, then a repeated main number).
 */
export function readTypedTicket(typed: string): { ok: true; ticket: Ticket; canonical: string } | { ok: false; error: TypedTicketError } {
  const s = toAsciiDigits(typed.normalize('NFKC'));
  if (!ONLY_NUMBERS.test(s)) return { ok: false, error: 'notNumbers' };
  const parts = s.split(/[^\d]+/).filter((p) => p !== '');
  if (parts.some((p) => !NUMBER.test(p))) return { ok: false, error: 'notNumbers' };
  if (parts.length < MAIN_COUNT + 1) return { ok: false, error: 'tooFew' };
  if (parts.length > MAIN_COUNT + 1) return { ok: false, error: 'tooMany' };
  const nums = parts.map(Number);
  const last = nums.pop() as number;
  if (!nums.every(isMainNumber)) return { ok: false, error: 'mainOutOfRange' };
  if (!isLastNumber(last)) return { ok: false, error: 'lastOutOfRange' };
  if (new Set(nums).size !== MAIN_COUNT) return { ok: false, error: 'repeated' };
  const ticket: Ticket = { main: [...nums].sort((a, b) => a - b), last };
  return { ok: true, ticket, canonical: formatTicket(ticket) };
}

/** What every Lucky Chance code begins with: `BHG 4821 7730` (docs/rules/draws.md#7a-lucky-chance). */
export const LUCKY_CODE_PREFIX = 'BHG';

/** A code as people type it: `BHG` or not, then eight digits, grouped or not by spaces, dashes or dots; Bengali digits too. */
const TYPED_CODE = /^\s*(?:bhg)?[\s.-]*(\d{4})[\s.-]*(\d{4})\s*$/i;

/**
 * Reads a Lucky Chance code as typed into "Check my numbers" (`BHG 4821 7730`, `bhg48217730`, `৪৮২১ ৭৭৩০`): the code as
 * the proof writes it, or null when the text is not one (then it is read as a ticket).
 */
export function readLuckyCode(typed: string): string | null {
  const m = TYPED_CODE.exec(toAsciiDigits(typed.normalize('NFKC')));
  return m ? `${LUCKY_CODE_PREFIX} ${m[1]} ${m[2]}` : null;
}
