import type { TFunction } from '../i18n.tsx';

/**
 * Messages from actions are either a translation key (written `k:ns:key`, optionally `|{"max":100}` with its
 * variables: the problems a shared schema finds, the page's own fallbacks) or a text the API already wrote in the
 * visitor's language.
 */
export const key = (k: string, vars?: Record<string, unknown>) => `k:${k}${vars ? `|${JSON.stringify(vars)}` : ''}`;

export function msg(t: TFunction, m: string | undefined): string | undefined {
  if (m === undefined || !m.startsWith('k:')) return m;
  const bar = m.indexOf('|');
  if (bar < 0) return t(m.slice(2));
  let vars: Record<string, unknown>;
  try {
    vars = JSON.parse(m.slice(bar + 1)) as Record<string, unknown>;
  } catch {
    vars = {};
  }
  return t(m.slice(2, bar), vars);
}
