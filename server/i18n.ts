import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import i18next, { type FormatterModule, type i18n, type Module, type Resource, type TFunction } from 'i18next';
import { formatNumber } from '../shared/dates.ts';
import { LANGUAGES, type Language } from '../shared/i18n.ts';

/**
 * The app's texts, for what a feature words in a player's own language (a message, a notice), the language given with
 * each call (`{ lng }`). Never the caller's translator: refusals are worded by run() (docs/decisions/064-refusals-as-data.md).
 */
export type Texts = TFunction;

/** locales/ sits at the project root, above server/ (source) and dist/server/ (build) alike. */
export function findUp(name: string, from = import.meta.dirname): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, name);
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`${name}/ not found above ${from}`);
  }
}

export function loadResources(dir = findUp('locales')): Resource {
  const out: Resource = {};
  for (const lng of LANGUAGES) {
    out[lng] = {};
    for (const file of readdirSync(path.join(dir, lng)).filter((f) => f.endsWith('.json'))) {
      out[lng][file.slice(0, -5)] = JSON.parse(readFileSync(path.join(dir, lng, file), 'utf8'));
    }
  }
  return out;
}

/**
 * The Bengali words for the JSON types zod names in `validation:wrongType` (`{{expected}}`), so that a Bengali
 * error never shows "string" or "number"; a type not listed gets the general words.
 */
const BN_TYPES: Readonly<Record<string, string>> = {
  string: 'লেখা',
  number: 'একটি সংখ্যা',
  int: 'একটি পূর্ণসংখ্যা',
  bigint: 'একটি পূর্ণসংখ্যা',
  boolean: 'হ্যাঁ/না (true বা false)',
  array: 'একটি তালিকা',
  object: 'একটি অবজেক্ট',
  date: 'একটি তারিখ',
};
const BN_ANY_TYPE = 'সঠিক ধরনের মান';

/**
 * How a value reads inside a message of the language (docs/rules/bengali.md#3-numbers-in-messages).
 * Bengali: a number (seconds, minutes, a limit) in Bengali digits with Indian grouping, as on the pages
 * (`৩,৬০০`); a type name of `{{expected}}` as a Bengali word. Strings are left as they are: a one-time code is
 * passed as a string and stays in ASCII digits, the digits phones offer to fill in and the outbox blanks out
 * (server/notify). English: every value as it is.
 */
export function localiseValue<T>(value: T, lng: string | undefined, name: string | undefined): T | string {
  if (lng !== 'bn') return value;
  if (typeof value === 'bigint' || (typeof value === 'number' && Number.isFinite(value))) return formatNumber(value, 'bn');
  if (name === 'expected' && typeof value === 'string') return BN_TYPES[value] ?? BN_ANY_TYPE;
  return value;
}

/**
 * i18next's formatter, called for every `{{value}}` (interpolation.alwaysFormat). It replaces the built-in one:
 * named formats (`{{n, number}}`) are not used, since the pages' translator (shared/translate.ts) reads the
 * same files and knows none of them; the format name, should one appear, is ignored.
 */
const formatter: FormatterModule = {
  type: 'formatter',
  init: () => undefined,
  add: () => undefined,
  addCached: () => undefined,
  format: (value, _format, lng, options) => localiseValue(value, lng, options?.interpolationkey as string | undefined),
};

/** Modules (the request language detector) must be registered before init: i18next wires them up only there. */
export async function createI18n(resources: Resource, modules: Module[] = []): Promise<i18n> {
  const instance = i18next.createInstance();
  instance.use(formatter);
  for (const m of modules) instance.use(m);
  await instance.init({
    resources,
    supportedLngs: [...LANGUAGES],
    fallbackLng: 'en',
    ns: Object.keys(resources.en ?? {}),
    defaultNS: 'common',
    interpolation: { escapeValue: false, alwaysFormat: true }, // React escapes; alwaysFormat: see `formatter`
    returnNull: false,
  });
  return instance;
}

export const isLanguage = (v: unknown): v is Language => typeof v === 'string' && (LANGUAGES as readonly string[]).includes(v);
