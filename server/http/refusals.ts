/**
 * A refusal answered (docs/decisions/064-refusals-as-data.md): the catalogue's status, the text in the caller's
 * language, and the code, for a refusal the endpoint declares. One it does not declare is a bug, not an answer.
 */
import type { TFunction } from 'i18next';
import type { Endpoint } from '../../shared/api/endpoint.ts';
import type { Refusal, RefusalSpec } from '../../shared/api/refusal.ts';
import { catalogue } from '../../shared/api/refusals.ts';
import type { Language } from '../../shared/i18n.ts';
import { ApiError } from './errors.ts';

const specs: Readonly<Record<string, RefusalSpec>> = catalogue;

/** A refusal the endpoint does not declare: the 500 of a bug (logged as one), never the refusal's own answer. */
export class UndeclaredRefusal extends Error {}

/** The refusal's spec in the catalogue (undefined for a name it does not have). */
export function refusalSpec(name: string): RefusalSpec | undefined {
  return Object.hasOwn(specs, name) ? specs[name] : undefined;
}

/** The answer to a refusal of endpoint `e`, in the caller's language; an UndeclaredRefusal when `e` does not list it. */
export function refusalAnswer(r: Refusal, e: Endpoint, t: TFunction, lng: Language): ApiError | UndeclaredRefusal {
  const all = [r, ...(r.details.with ?? [])];
  const specs: RefusalSpec[] = [];
  for (const one of all) {
    const spec = refusalSpec(one.refusal);
    if (!spec || !(e.refuses as readonly string[]).includes(one.refusal)) {
      const why = spec ? 'it does not declare' : 'is not in the catalogue';
      const bug = new UndeclaredRefusal(`${e.method} ${e.path} refused with '${one.refusal}', which ${why}`);
      // Jest fails a test that writes to console.error: the test that reached this refusal fails, naming it.
      if (process.env.NODE_ENV === 'test') console.error(bug.message);
      return bug;
    }
    specs.push(spec);
  }
  const text = (one: Refusal, spec: RefusalSpec) => {
    const raw = one.details.vars ?? {};
    return t(spec.text, spec.format ? spec.format(raw, lng, (key, opts) => t(key, opts)) : raw);
  };
  const [spec] = specs as [RefusalSpec];
  const code = spec.code ?? r.refusal;
  const headers = r.details.headers ?? {};
  if (!spec.field) return new ApiError(spec.status, { detail: text(r, spec), code, ...r.details.extra }, headers);
  // A field's refusal is a field error (docs/rules/api.md#2-errors): its text under the field, and nothing else but
  // the code; refusals of other fields given with it under theirs.
  const body: Record<string, string[]> = {};
  all.forEach((one, i) => {
    const s = specs[i] as RefusalSpec;
    if (s.field) (body[s.field] ??= []).push(text(one, s));
  });
  return new ApiError(spec.status, { ...body, code }, headers);
}
