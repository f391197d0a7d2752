import { data, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { useTranslation } from '../i18n.tsx';
import { paths } from '../../shared/paths.ts';
import { localeOf } from '../context.ts';
import { PageHead } from '../components/page-head.tsx';
import { Head } from '../components/head.tsx';
import { contentLink, type ContentLink } from './link.ts';

/** One module for the long-form pages; the URL picks the text of locales/<lng>/content.json. */
const PAGES = {
  [paths.playResponsibly]: 'playResponsibly',
  [paths.notice]: 'notice',
  [paths.terms]: 'terms',
  [paths.about]: 'about',
} as const;
type PageKey = (typeof PAGES)[keyof typeof PAGES];
/** The long legal texts get an in-page table of contents (on wide screens). */
const WITH_TOC: ReadonlySet<PageKey> = new Set(['notice', 'terms']);

export type LegalDoc = {
  title: string;
  intro?: string;
  updated?: string;
  /** A section may end with a link to one of the site's own pages (Play Responsibly → /profile/limits). */
  sections: { heading: string; paragraphs: string[]; link?: ContentLink }[];
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  const pathname = new URL(request.url).pathname.replace(/\/+$/, '');
  const key = (PAGES as Record<string, PageKey>)[pathname];
  if (!key) throw data(null, { status: 404 });
  const doc = (await localeOf(context).namespace('content'))[key] as LegalDoc | undefined;
  if (!doc) throw data(null, { status: 404 });
  return { toc: WITH_TOC.has(key), doc };
}

/** "1. Choose…" paragraphs (ASCII or Bengali digits) are steps: shown as a numbered list. */
const STEP = /^([0-9০-৯]+)\.\s+/;

function Paragraphs({ paragraphs }: { paragraphs: string[] }) {
  if (paragraphs.length > 1 && paragraphs.every((p) => STEP.test(p))) {
    return (
      <ol className="steps">
        {paragraphs.map((p) => {
          const n = STEP.exec(p)?.[1] ?? '';
          return (
            <li key={n}>
              <span className="steps__n" aria-hidden="true">
                {n}
              </span>
              <span>{p.replace(STEP, '')}</span>
            </li>
          );
        })}
      </ol>
    );
  }
  return (
    <>
      {paragraphs.map((p, i) => (
        <p key={i}>{p}</p>
      ))}
    </>
  );
}

export function Component() {
  const { t } = useTranslation();
  const { toc, doc } = useLoaderData<typeof loader>();
  const id = (i: number) => `section-${i + 1}`;
  const box = toc ? 'container container--doc' : 'container narrow';
  return (
    <>
      <Head title={t('title', { page: doc.title })} description={doc.intro ?? doc.sections[0]?.paragraphs[0] ?? doc.title} />
      <PageHead
        title={doc.title}
        box={box}
        meta={doc.updated ? t('pages.legal.updated', { date: doc.updated }) : undefined}
        lead={doc.intro}
      />
      <div className={`${box} doc${toc ? ' doc--toc' : ''}`}>
        {toc ? (
          <nav className="toc" aria-labelledby="toc-title">
            <h2 id="toc-title">{t('pages.legal.toc')}</h2>
            <ul>
              {doc.sections.map((s, i) => (
                <li key={i}>
                  <a href={`#${id(i)}`}>{s.heading}</a>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
        <article className="prose">
          {doc.sections.map((s, i) => {
            const link = contentLink(s.link);
            return (
              <section key={i} id={id(i)} aria-labelledby={`${id(i)}-h`}>
                <h2 id={`${id(i)}-h`}>{s.heading}</h2>
                <Paragraphs paragraphs={s.paragraphs} />
                {link ? (
                  <p>
                    <a href={link.to}>{link.text}</a>
                  </p>
                ) : null}
              </section>
            );
          })}
        </article>
      </div>
    </>
  );
}
