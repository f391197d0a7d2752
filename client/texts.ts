import { TEXTS_GLOBAL } from '../shared/i18n.ts';
import type { Resources } from '../shared/translate.ts';

/**
 * The client's texts, which the page's deferred texts script (server/ssr/texts.ts) sets before the entry module runs;
 * undefined when it did not load. Without them an entry does not hydrate: the server's HTML works without JavaScript,
 * while hydrating with no texts would show their keys.
 */
export const pageTexts = (): Resources | undefined => (self as unknown as Record<string, Resources | undefined>)[TEXTS_GLOBAL];
