import type { TFunction } from '../i18n.tsx';

/**
 * Messages from actions are either a key of locales/<lng>/auth.json `errors` (written `k:key`, from the shared
 * validation rules) or a text the API already wrote in the visitor's language.
 */
export const key = (k: string) => `k:${k}`;
export const msg = (t: TFunction, m: string | undefined): string | undefined =>
  m === undefined ? undefined : m.startsWith('k:') ? t(`auth:errors.${m.slice(2)}`) : m;

export function keyed<T extends string>(errors: Partial<Record<string, T>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [f, k] of Object.entries(errors)) if (k) out[f] = key(k);
  return out;
}
