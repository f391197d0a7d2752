import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import i18next, { type i18n, type Module, type Resource } from 'i18next';
import { LANGUAGES, type Language } from '../shared/i18n.ts';

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

/** Modules (the request language detector) must be registered before init: i18next wires them up only there. */
export async function createI18n(resources: Resource, modules: Module[] = []): Promise<i18n> {
  const instance = i18next.createInstance();
  for (const m of modules) instance.use(m);
  await instance.init({
    resources,
    supportedLngs: [...LANGUAGES],
    fallbackLng: 'en',
    ns: Object.keys(resources.en ?? {}),
    defaultNS: 'common',
    interpolation: { escapeValue: false }, // React escapes
    returnNull: false,
  });
  return instance;
}

export const isLanguage = (v: unknown): v is Language => typeof v === 'string' && (LANGUAGES as readonly string[]).includes(v);
