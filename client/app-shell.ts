/**
 * The installable app in the page (docs/rules/app.md), for both entries: the service worker registered after load,
 * a waiting new version let in, the footer's "Install the app" button shown where the browser offers to install, and
 * the back button's listener. Plain DOM: the home page hydrates islands only, and the footer is not one.
 */
import { SW_PATH, SW_TAKE_OVER } from '../shared/app-shell.ts';
import { listenForBack } from '../views/components/close-on-back.ts';

/** The browser's install offer (Chromium's `beforeinstallprompt` event; not in the DOM's types). */
type InstallPrompt = Event & { prompt(): Promise<unknown> };

let offer: InstallPrompt | null = null;
const root = document.documentElement;

function installButton(): void {
  window.addEventListener('beforeinstallprompt', (e) => {
    e.preventDefault(); // our button instead of the browser's own bar
    offer = e as InstallPrompt;
    root.dataset.installable = ''; // shows [data-install-app] (views/styles/app.css)
  });
  window.addEventListener('appinstalled', () => {
    offer = null;
    delete root.dataset.installable;
  });
  document.addEventListener('click', (e) => {
    const button = e.target instanceof Element ? e.target.closest('[data-install-app]') : null;
    if (!button || !offer) return;
    const o = offer;
    offer = null; // an offer is used once
    delete root.dataset.installable;
    void o.prompt();
  });
}

/**
 * Registers the worker. A new version waits until a page agrees (docs/rules/app.md#4-updates): this page does, being
 * one the network has just given (navigations always come from the network; a copy shown offline runs no script).
 */
async function register(): Promise<void> {
  const reg = await navigator.serviceWorker.register(SW_PATH).catch(() => null);
  if (!reg) return;
  const agree = (w: ServiceWorker | null) => w?.postMessage(SW_TAKE_OVER);
  if (reg.waiting) agree(reg.waiting);
  reg.addEventListener('updatefound', () => {
    const w = reg.installing;
    w?.addEventListener('statechange', () => {
      if (w.state === 'installed' && navigator.serviceWorker.controller) agree(w);
    });
  });
}

/** Called by each entry before anything else: the back button's listener must come before the router's. */
export function startAppShell(): void {
  listenForBack();
  installButton();
  if (!('serviceWorker' in navigator)) return;
  if (document.readyState === 'complete') void register();
  else window.addEventListener('load', () => void register(), { once: true });
}
