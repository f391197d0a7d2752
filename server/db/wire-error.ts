/**
 * An error as plain data between the app and the embedded database's thread (server/db/pglite-thread.ts): its message
 * and its scalar fields (PostgreSQL's code, constraint, detail, …), which is all the app reads of a database's error;
 * and a procedure's refusal (Db.run) as itself, its details with it, so that the app answers it as if the procedure
 * had run in its own thread (docs/decisions/099-writes-run-on-the-database-thread.md). Features refuse, never answer
 * HTTP themselves (docs/decisions/064-refusals-as-data.md): a refusal is the one error of theirs that crosses.
 */
import { Refusal, type RefusalDetails } from '../../shared/api/refusal.ts';

type Scalar = string | number | boolean | null;
type WireRefusal = {
  name: string;
  vars?: Record<string, unknown>;
  extra?: Record<string, unknown>;
  headers?: Record<string, string>;
  with?: WireRefusal[];
};
export type WireError = {
  message: string;
  fields: Record<string, Scalar>;
  refusal?: WireRefusal;
};

const wireRefusal = (r: Refusal): WireRefusal => {
  const { vars, extra, headers } = r.details;
  return {
    name: r.refusal,
    ...(vars ? { vars } : {}),
    ...(extra ? { extra } : {}),
    ...(headers ? { headers } : {}),
    ...(r.details.with ? { with: r.details.with.map(wireRefusal) } : {}),
  };
};

const refusalOf = (w: WireRefusal): Refusal => {
  const details: RefusalDetails = {};
  if (w.vars) details.vars = w.vars;
  if (w.extra) details.extra = w.extra;
  if (w.headers) details.headers = w.headers;
  if (w.with) details.with = w.with.map(refusalOf);
  return new Refusal(w.name, details);
};

/** What crosses for `err`. */
export function toWire(err: unknown): WireError {
  if (!(err instanceof Error)) return { message: String(err), fields: {} };
  const fields: Record<string, Scalar> = {};
  for (const [k, v] of Object.entries(err)) if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) fields[k] = v as Scalar;
  const out: WireError = { message: err.message, fields };
  if (err instanceof Refusal) out.refusal = wireRefusal(err);
  return out;
}

/** The error again on the other side: a refusal as itself, else an Error with the fields. */
export function fromWire(w: WireError): Error {
  if (w.refusal) return refusalOf(w.refusal);
  return Object.assign(new Error(w.message), w.fields);
}
