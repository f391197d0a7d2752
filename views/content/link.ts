import { paths } from '../../shared/paths.ts';

/**
 * A link at the end of a text of the content namespace (locales/<lng>/content.json), written `{ "<page>": "<its text>" }`:
 * the page is named by its key in shared/paths.ts, so that the texts hold words only, in their language, and every path
 * is declared once.
 */
export type ContentLink = Record<string, string>;

/** The link's path and text; null without one, or when its key names no page with a path of its own. */
export function contentLink(link: ContentLink | undefined): { to: string; text: string } | null {
  for (const [page, text] of Object.entries(link ?? {})) {
    const to: unknown = (paths as Record<string, unknown>)[page];
    if (typeof to === 'string') return { to, text };
  }
  return null;
}
