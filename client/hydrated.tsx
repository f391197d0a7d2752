import { useEffect, type ReactNode } from 'react';

/**
 * A wrapper for each React root of a page that marks the document once every one of them has hydrated (a parent's
 * effect runs after its whole tree is committed): from then on links, buttons and pickers do what JavaScript makes
 * them do. The browser journeys wait for the mark (`hydrated()` in tests/e2e/helpers.ts), on the router's pages (one
 * root) as on the islands pages (one root per island).
 */
export function hydrationMark(roots: number): (props: { children: ReactNode }) => ReactNode {
  let left = roots;
  const mark = () => {
    document.documentElement.dataset.hydrated = '';
  };
  if (left <= 0) mark();
  return function MarkHydrated({ children }) {
    useEffect(() => {
      left -= 1;
      if (left === 0) mark();
    }, []);
    return children;
  };
}
