import type { ReactNode } from 'react';

/**
 * A hydration island: on pages served with the light islands entry (the home page, to stay inside the
 * JavaScript budget of docs/rules/limits.md#6-page-budgets) only these parts hydrate, each on its own, from the props written here.
 * Inside the full router app they are ordinary components.
 */
export function Island<P extends object>({ name, props, children }: { name: string; props: P; children: ReactNode }) {
  return (
    <div data-island={name} data-props={JSON.stringify(props)} className="island">
      {children}
    </div>
  );
}
