import type { FaqCategory } from './faq.tsx';

/** The FAQ's questions, in order, with their category; their texts are in locales/<lng>/content.json `faq.items.<id>`. */
export const FAQ_CATALOGUE: readonly { id: string; category: FaqCategory }[] = [
  { id: 'what-is-bhagya', category: 'general' },
  { id: 'who-can-play', category: 'general' },
  { id: 'how-to-buy-ticket', category: 'tickets' },
  { id: 'activate-ticket', category: 'tickets' },
  { id: 'how-to-claim-prize', category: 'prizes' },
  { id: 'prize-split', category: 'prizes' },
  { id: 'how-to-win', category: 'prizes' },
  { id: 'when-are-draws', category: 'results' },
  { id: 'where-are-results', category: 'results' },
  { id: 'register-verify', category: 'account' },
  { id: 'forgot-password', category: 'account' },
];
