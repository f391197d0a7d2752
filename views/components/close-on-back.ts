import { useEffect, useRef } from 'react';

/**
 * The back button in the installed app (docs/rules/app.md#5-the-back-button): a dialog whose opening does not change
 * the address (the home page's number picker, the activation, the congratulations) closes on back instead of leaving
 * the page. Opening it adds a history entry; back leaves that entry, and the dialog closes; closing it otherwise takes
 * the entry away again. In a browser tab nothing changes: its back button and address bar are the browser's.
 * No react-router here: the home page's islands use it too.
 */

/** Whether the page runs as the installed app (the manifest's `display: standalone`). */
export const standalone = (): boolean => typeof window.matchMedia === 'function' && window.matchMedia('(display-mode: standalone)').matches;

/** The key of our entries in `history.state` (the router keeps its own keys there: they are copied, not replaced). */
const KEY = 'bhDialog';
let marks = 0;

/** The open dialogs that close on back, the last opened last. */
const open: { mark: number; close: () => void }[] = [];
/** Steps back we take ourselves (a dialog closed another way), to be kept from everyone else. */
let ownSteps = 0;
let listening = false;

const stateOf = (): Record<string, unknown> =>
  history.state !== null && typeof history.state === 'object' ? (history.state as Record<string, unknown>) : {};

/**
 * Our history steps are no navigations: the app's router must not see them (it would load the page again). A
 * listener on window runs in the order listeners were added, capturing or not: this one is added before the router's
 * (client/app-shell.ts), and stops the event for the steps that are ours.
 */
function onPopState(e: PopStateEvent): void {
  if (ownSteps > 0) {
    ownSteps--;
    e.stopImmediatePropagation();
    return;
  }
  const top = open.pop();
  if (!top) return;
  e.stopImmediatePropagation();
  top.close();
}

/** Starts listening for back; called by the entries before anything else listens (client/app-shell.ts). */
export function listenForBack(): void {
  if (listening) return;
  listening = true;
  window.addEventListener('popstate', onPopState);
}

/** While the component is mounted (its dialog open), back closes it by calling `close` (in the installed app only). */
export function useCloseOnBack(enabled: boolean, close: () => void): void {
  const closeRef = useRef(close);
  useEffect(() => {
    closeRef.current = close;
  });
  useEffect(() => {
    if (!enabled || !standalone()) return;
    listenForBack();
    const entry = { mark: ++marks, close: () => closeRef.current() };
    history.pushState({ ...stateOf(), [KEY]: entry.mark }, '');
    open.push(entry);
    return () => {
      const i = open.indexOf(entry);
      if (i < 0) return; // back closed it: its entry is gone already
      open.splice(i, 1);
      // Closed another way (its close button, Escape, done): our entry goes, unless a navigation already left it.
      if (stateOf()[KEY] === entry.mark) {
        ownSteps++;
        history.back();
      }
    };
  }, [enabled]);
}

/**
 * Leaves the page from inside an open dialog (the picker's Play): in place of the dialog's own history entry, so that
 * back from the next page comes to this page, not to a step of it that shows nothing more.
 */
export function leaveTo(href: string): void {
  if (typeof stateOf()[KEY] === 'number') window.location.replace(href);
  else window.location.assign(href);
}
