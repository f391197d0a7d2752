import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * False on the server and while the browser hydrates the server's HTML (so both render the same markup), true
 * from the render right after hydration on: for what only works with JavaScript (timers, animations, dialogs).
 * The hydration-safe form of `useEffect(() => setHydrated(true), [])`, without an extra state update per component.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
