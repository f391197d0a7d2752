import { useEffect, useSyncExternalStore, type ReactNode } from 'react';
import { useTranslation } from '../i18n.tsx';
import { Alert } from './form.tsx';
import { useHydrated } from './use-hydrated.ts';

export type ToastKind = 'success' | 'error' | 'info';
/** Where toasts appear (docs/rules/pages.md#7-dialogs-and-controls): top right by default, bottom right for ticket activation. */
export type ToastPosition = 'top-right' | 'bottom-right';
export type ToastOptions = { kind?: ToastKind; position?: ToastPosition; ms?: number };
type Item = { id: number; text: string; kind: ToastKind; position: ToastPosition };

/** How long a toast stays: 5 s unless said (the spec's 3 s is for cancel notices). */
export const TOAST_MS = 5000;
const POSITIONS: readonly ToastPosition[] = ['top-right', 'bottom-right'];
const NONE: readonly Item[] = [];

let items: readonly Item[] = NONE;
let seq = 0;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => void listeners.delete(l);
};

export function dismissToast(id: number): void {
  items = items.filter((x) => x.id !== id);
  emit();
}

/** Shows a toast in the browser (a no-op on the server, where nothing calls it: effects and handlers only). */
export function toast(text: string, o: ToastOptions = {}): void {
  const item: Item = { id: ++seq, text, kind: o.kind ?? 'success', position: o.position ?? 'top-right' };
  items = [...items, item];
  emit();
  window.setTimeout(() => dismissToast(item.id), o.ms ?? TOAST_MS);
}

/**
 * The toasts of the page, mounted once in the root layout. The regions are always in the page (empty until a
 * toast comes) so that screen readers announce what is added to them.
 */
export function Toasts() {
  const { t } = useTranslation();
  const list = useSyncExternalStore(
    subscribe,
    () => items,
    () => NONE,
  );
  return (
    <>
      {POSITIONS.map((p) => (
        <div key={p} className={`toasts toasts--${p}`} role="status" aria-live="polite">
          {list
            .filter((x) => x.position === p)
            .map((x) => (
              <div key={x.id} className={`toast toast--${x.kind}`}>
                <span>{x.text}</span>
                <button type="button" className="toast__close" aria-label={t('actions.close')} onClick={() => dismissToast(x.id)}>
                  ×
                </button>
              </div>
            ))}
        </div>
      ))}
    </>
  );
}

/**
 * A message about what just happened ("details submitted", "code sent"): a toast once JavaScript runs, an alert in
 * the page without it (and in the server's HTML, which the browser hydrates before the toast replaces it).
 */
export function Notice({ text, children, ...o }: { text: string; children?: ReactNode } & ToastOptions) {
  const hydrated = useHydrated();
  useEffect(() => {
    if (hydrated) toast(text, o);
    // One toast per message: a new text (a new action result) is a new toast.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [hydrated, text]);
  return hydrated ? null : <Alert kind={o.kind ?? 'success'}>{children ?? text}</Alert>;
}
