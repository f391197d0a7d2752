import type { ReactNode } from 'react';

/** The title band of a content page: h1, an optional date line and lead. */
export function PageHead({
  title,
  lead,
  meta,
  box = 'container narrow',
}: {
  title: string;
  lead?: string | undefined;
  meta?: string | undefined;
  box?: string;
}) {
  return (
    <header className="page-head">
      <div className={box}>
        <h1>{title}</h1>
        {meta ? <p className="page-head__meta">{meta}</p> : null}
        {lead ? <p className="page-head__lead">{lead}</p> : null}
      </div>
    </header>
  );
}

/** The heading row of a page section: its title (h2 labelled by `id`), a lead, and actions on the right. */
export function SectionHead({ id, title, lead, children }: { id: string; title: string; lead?: string; children?: ReactNode }) {
  return (
    <div className="section__head">
      <div>
        <h2 id={id}>{title}</h2>
        {lead ? <p className="section__lead">{lead}</p> : null}
      </div>
      {children}
    </div>
  );
}
