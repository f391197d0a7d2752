/**
 * The translator the React views use, on the server and in the browser alike, so both render the same text.
 * A small subset of i18next's behaviour: `ns:key.path` lookup, `{{name}}` interpolation, `_one`/`_other`
 * plurals by Intl.PluralRules, objects/arrays with `returnObjects`. (i18next itself serves the server's API
 * messages; in the browser its ~16 KB gzip would not fit the home page budget, docs/rules/limits.md#6-page-budgets.)
 */
export type Resources = Record<string, Record<string, unknown>>; // namespace → tree
export type TOptions = Record<string, unknown> & { count?: number; returnObjects?: boolean; defaultValue?: string };
export type Translate = <R = string>(key: string, opts?: TOptions) => R;

function lookup(tree: unknown, path: string): unknown {
  let cur = tree;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

const pluralRules = new Map<string, Intl.PluralRules>();

export function createTranslator(lng: string, resources: Resources, defaultNs = 'common'): Translate {
  const locale = lng === 'bn' ? 'bn' : 'en';
  let plural = pluralRules.get(locale);
  if (!plural) pluralRules.set(locale, (plural = new Intl.PluralRules(locale)));
  return (<R>(key: string, opts: TOptions = {}): R => {
    const sep = key.indexOf(':');
    const ns = sep > 0 ? key.slice(0, sep) : defaultNs;
    const path = sep > 0 ? key.slice(sep + 1) : key;
    const tree = resources[ns];
    let value: unknown;
    if (typeof opts.count === 'number') value = lookup(tree, `${path}_${plural.select(opts.count)}`) ?? lookup(tree, `${path}_other`);
    value ??= lookup(tree, path);
    if (value === undefined) return (opts.defaultValue ?? key) as R;
    if (typeof value !== 'string') return (opts.returnObjects ? value : key) as R;
    return value.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => (opts[name] === undefined ? '' : String(opts[name]))) as R;
  }) as Translate;
}
