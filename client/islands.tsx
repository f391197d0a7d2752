import type { ComponentType } from 'react';
import { hydrateRoot } from 'react-dom/client';
import type { Language } from '../shared/i18n.ts';
import { DATA_ELEMENT_ID } from '../views/document.tsx';
import { I18nProvider } from '../views/i18n.tsx';
import { islands } from '../views/islands.ts';
import { startAppShell } from './app-shell.ts';
import { hydrationMark } from './hydrated.tsx';
import { pageTexts } from './texts.ts';

/**
 * The light entry for pages that need only a few interactive parts (no client router): each [data-island]
 * hydrates its component; links and forms work as plain HTML, which they do anyway without JavaScript.
 */
const page = JSON.parse(document.getElementById(DATA_ELEMENT_ID)?.textContent ?? '{}') as { i18n: { lng: Language } };
const resources = pageTexts();
startAppShell();

if (resources) {
  const roots = [...document.querySelectorAll<HTMLElement>('[data-island]')].flatMap((el) => {
    const Component = islands[el.dataset.island ?? ''] as ComponentType<object> | undefined;
    return Component ? [{ el, Component }] : [];
  });
  const MarkHydrated = hydrationMark(roots.length);
  for (const { el, Component } of roots) {
    const props = JSON.parse(el.dataset.props ?? '{}') as object;
    hydrateRoot(
      el,
      <I18nProvider language={page.i18n.lng} resources={resources}>
        <MarkHydrated>
          <Component {...props} />
        </MarkHydrated>
      </I18nProvider>,
    );
  }
}

// The top bar shrinks once the page has scrolled past 20 px.
const bar = document.querySelector('.top-bar');
const onScroll = () => bar?.classList.toggle('is-scrolled', window.scrollY > 20);
window.addEventListener('scroll', onScroll, { passive: true });
onScroll();

// Server-rendered dialogs (first-visit language chooser) become real modals; Escape follows their close link.
for (const d of document.querySelectorAll<HTMLDialogElement>('dialog.dialog[open]:not([data-island] dialog)')) {
  d.close();
  d.showModal();
  const closeLink = d.querySelector<HTMLAnchorElement>('.dialog__close');
  d.addEventListener('cancel', (e) => {
    e.preventDefault();
    if (closeLink) window.location.assign(closeLink.href);
  });
}
