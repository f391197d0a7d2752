import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Language } from '../../shared/i18n.ts';
import type { PageAssets } from '../../views/document.tsx';

/** Written by scripts/build.ts: hashed client files, and for each route module the chunks it needs. */
export type Manifest = {
  entry: string;
  entryImports: string[];
  islands: string;
  islandsImports: string[];
  css: string[];
  chunks: Record<string, string[]>;
  fonts: Partial<Record<Language, string>>;
};

const EMPTY: Manifest = { entry: '', entryImports: [], islands: '', islandsImports: [], css: [], chunks: {}, fonts: {} };

/**
 * Reads the manifest, again when the file changes (development rebuilds) without a restart: looked at no more than
 * once a second, not on every page.
 */
export function manifestReader(file: string): () => Manifest {
  let cached: { mtime: number; m: Manifest } | null = null;
  let checked = 0;
  let current = EMPTY;
  return () => {
    const now = Date.now();
    if (now - checked < 1000) return current;
    checked = now;
    if (!existsSync(file)) return (current = EMPTY);
    const mtime = statSync(file).mtimeMs;
    if (!cached || cached.mtime !== mtime) cached = { mtime, m: JSON.parse(readFileSync(file, 'utf8')) as Manifest };
    return (current = cached.m);
  };
}

/** What a page loads: the islands entry alone, or the app entry with the chunks of its matched routes. */
export function pageAssets(m: Manifest, routeChunks: string[], islandsPage: boolean): PageAssets {
  if (islandsPage) return { css: m.css, entry: m.islands, modulepreload: m.islandsImports, fontPreload: m.fonts };
  const preload = new Set<string>(m.entryImports);
  for (const c of routeChunks) for (const f of m.chunks[c] ?? []) preload.add(f);
  preload.delete(m.entry);
  return { css: m.css, entry: m.entry, modulepreload: [...preload], fontPreload: m.fonts };
}

export const clientDir = (root: string) => path.join(root, 'dist', 'client');
