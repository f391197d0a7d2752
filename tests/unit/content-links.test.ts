/**
 * Links in the long texts (views/content/link.ts): a page named by its key in shared/paths.ts, the texts holding words
 * only. Every link of both languages' content names such a page, at the same places in both.
 */
import { readFileSync } from 'node:fs';
import { contentLink } from '../../views/content/link.ts';
import { paths } from '../../shared/paths.ts';

test('a key of a page with a path of its own gives that path and the text', () => {
  expect(contentLink({ resultsArchive: 'See all results' })).toEqual({ to: paths.resultsArchive, text: 'See all results' });
  expect(contentLink({ profileLimits: 'সীমা ঠিক করুন' })).toEqual({ to: '/profile/limits', text: 'সীমা ঠিক করুন' });
});

test('no link, an unknown key or a page whose path takes parameters: no link', () => {
  expect(contentLink(undefined)).toBeNull();
  expect(contentLink({})).toBeNull();
  expect(contentLink({ nowhere: 'Nowhere' })).toBeNull();
  expect(contentLink({ results: 'A lottery’s results' })).toBeNull(); // /results/:lotteryId
});

/** Every `link` object in a JSON tree, by where it is. */
function linksIn(node: unknown, at = ''): Record<string, Record<string, string>> {
  if (!node || typeof node !== 'object') return {};
  const out: Record<string, Record<string, string>> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'link') out[at] = v as Record<string, string>;
    else Object.assign(out, linksIn(v, `${at}.${k}`));
  }
  return out;
}

test('the content of both languages links the same pages at the same places, each a page of shared/paths.ts', () => {
  const [en, bn] = (['en', 'bn'] as const).map((l) => linksIn(JSON.parse(readFileSync(`locales/${l}/content.json`, 'utf8'))));
  expect(Object.keys(en ?? {}).length).toBeGreaterThan(0);
  expect(Object.keys(bn ?? {})).toEqual(Object.keys(en ?? {}));
  for (const [at, link] of Object.entries(en ?? {})) {
    expect(Object.keys(bn?.[at] ?? {})).toEqual(Object.keys(link));
    expect([at, contentLink(link)]).toEqual([at, expect.objectContaining({ to: expect.stringMatching(/^\//) })]);
    expect([at, contentLink(bn?.[at])]).toEqual([at, expect.objectContaining({ to: contentLink(link)?.to })]);
  }
});
