/**
 * A refusal is data (docs/decisions/064-refusals-as-data.md): a rule that says no throws `refuse(name, vars)` with
 * no HTTP status and no text. The catalogue (shared/api/refusals.ts, the union of each feature's
 * shared/<feature>/refusals.ts) gives each refusal once its status, its text key and its code on the wire; every
 * endpoint of the contract lists the refusals it may answer; server/http/route.ts `run()` answers a declared one in
 * the caller's language and treats an undeclared one as a bug (500).
 */
import type { CountText, Language } from '../i18n.ts';

export type RefusalStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 428 | 429 | 503;

export type RefusalSpec = {
  status: RefusalStatus;
  /** The text's key (`namespace:path` in locales/<lng>/), worded with the refusal's vars in the caller's language. */
  text: string;
  /** The code on the wire when it is not the refusal's own name (several "not found" refusals answer `not_found`). */
  code?: string;
  /** A refusal of one field of the input: answered `{<field>: [text], code}` instead of `{detail: text, code}`. */
  field?: string;
  /** When it is answered, in English, for the OpenAPI document. */
  when: string;
  /**
   * The vars as the text shows them in a language (amounts and dates written the language's way); `t` is the caller's
   * translator, for words a var is made of (a session's length: "2 hours 5 minutes").
   */
  format?: (vars: Record<string, unknown>, lng: Language, t: CountText) => Record<string, unknown>;
};

/** A feature's refusals, each by its name (the code on the wire unless `code` says otherwise). */
export const refusals = <const R extends Record<string, RefusalSpec>>(r: R): R => r;

export type RefusalDetails = {
  /** Values the text interpolates (`{{price}}`). */
  vars?: Record<string, unknown>;
  /** Members of the answer's body besides `detail` and `code` (`until`, `proposal_id`, `wait`). */
  extra?: Record<string, unknown>;
  /** Headers of the answer (`Retry-After`). */
  headers?: Record<string, string>;
  /**
   * Other refusals of fields answered in the same body (the e-mail and the phone both taken): each under its field,
   * the body's `code` the first refusal's. Each must be declared by the endpoint too.
   */
  with?: readonly Refusal[];
};

/** A rule's no: the refusal's name and what its text and answer carry. */
export class Refusal<Name extends string = string> extends Error {
  readonly refusal: Name;
  readonly details: RefusalDetails;
  constructor(refusal: Name, details: RefusalDetails = {}) {
    super(`refused: ${refusal}`);
    this.refusal = refusal;
    this.details = details;
  }
}
