import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The English and Bengali translations stay in step: the same files, the same keys (nested keys flattened, array items
 * by index), the same `{{variables}}` in each string, and no Bengali string left empty.
 */
const LOCALES = fileURLToPath(new URL('../../locales/', import.meta.url));
const LANGUAGES = ['en', 'bn'] as const;

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

const files = (lng: string) =>
  readdirSync(`${LOCALES}${lng}`)
    .filter((f) => f.endsWith('.json'))
    .sort();

/** Every leaf of a namespace file, keyed by its dotted path (`login.notice.verified`, `faq.items.0.q`). */
function flatten(value: Json, prefix = '', out = new Map<string, Json>()): Map<string, Json> {
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else {
    out.set(prefix, value);
  }
  return out;
}

const loaded = new Map<string, Map<string, Json>>();
/** A namespace file's leaves, read once. */
function load(lng: string, file: string): Map<string, Json> {
  const path = `${LOCALES}${lng}/${file}`;
  let leaves = loaded.get(path);
  if (!leaves) loaded.set(path, (leaves = flatten(JSON.parse(readFileSync(path, 'utf8')) as Json)));
  return leaves;
}

/**
 * The interpolated names of a string: `{{n}}`, `{{ n }}`, `{{- html}}` and `{{n, number}}` are all `n`. A text nested
 * without options (`$t(play:api.selfExcluded)`) is interpolated with the same values, so its names count too: one
 * language may nest a text the other writes out.
 */
function variables(value: Json, lng: string, file: string, seen = new Set<string>()): string[] {
  if (typeof value !== 'string') return [];
  const names = [...value.matchAll(/\{\{(.*?)\}\}/g)].map((m) =>
    m[1]!
      .replace(/^\s*-?\s*/, '')
      .split(',')[0]!
      .trim(),
  );
  for (const [, ref] of value.matchAll(/\$t\(([^,)]+)\)/g)) {
    const [ns, key] = ref!.includes(':') ? (ref!.split(':', 2) as [string, string]) : [file.replace(/\.json$/, ''), ref!];
    if (seen.has(`${ns}:${key}`)) continue;
    seen.add(`${ns}:${key}`);
    // A key chosen by a value (`$t(api:status.{{from}})`) is one of several texts; its value is counted above.
    if (ref!.includes('{{')) continue;
    const nested = load(lng, `${ns}.json`).get(key);
    // A nesting of a text that does not exist would show its key to the player.
    if (nested === undefined) throw new Error(`${lng}/${file} nests $t(${ref}), which is not a text of ${lng}/${ns}.json`);
    names.push(...variables(nested, lng, `${ns}.json`, seen));
  }
  return [...new Set(names)].sort();
}

const onlyIn = (a: Iterable<string>, b: Iterable<string>) => {
  const other = new Set(b);
  return [...a].filter((x) => !other.has(x)).sort();
};

test('both languages have the same namespace files', () => {
  expect(files('en').length).toBeGreaterThan(0);
  expect({ onlyInEn: onlyIn(files('en'), files('bn')), onlyInBn: onlyIn(files('bn'), files('en')) }).toEqual({
    onlyInEn: [],
    onlyInBn: [],
  });
});

const shared = files('en').filter((f) => files('bn').includes(f));

describe.each(shared)('%s', (file) => {
  const [en, bn] = LANGUAGES.map((lng) => load(lng, file)) as [Map<string, Json>, Map<string, Json>];

  test('has the same keys in English and Bengali', () => {
    expect({ onlyInEn: onlyIn(en.keys(), bn.keys()), onlyInBn: onlyIn(bn.keys(), en.keys()) }).toEqual({ onlyInEn: [], onlyInBn: [] });
  });

  test('uses the same {{variables}} in each string', () => {
    const differ = [...en.keys()]
      .filter((key) => bn.has(key))
      .map((key) => ({ key, en: variables(en.get(key)!, 'en', file), bn: variables(bn.get(key)!, 'bn', file) }))
      .filter((d) => d.en.join() !== d.bn.join());
    expect(differ).toEqual([]);
  });

  test('has no empty Bengali string', () => {
    const empty = [...bn].filter(([, v]) => typeof v === 'string' && v.trim() === '').map(([key]) => key);
    expect(empty).toEqual([]);
  });
});
