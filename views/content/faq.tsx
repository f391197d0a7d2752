import { useEffect, useRef, type ChangeEvent } from 'react';
import { Form, Link, useLoaderData, useSubmit, type LoaderFunctionArgs } from 'react-router';
import { useTranslation } from '../i18n.tsx';
import { formatNumber } from '../../shared/dates.ts';
import { paths, withQuery } from '../../shared/paths.ts';
import { localeOf } from '../context.ts';
import { FAQ_CATALOGUE } from './faq-catalogue.ts';
import { PageHead } from '../components/page-head.tsx';
import { Head } from '../components/head.tsx';

export const FAQ_CATEGORIES = ['general', 'tickets', 'prizes', 'results', 'account'] as const;
export type FaqCategory = (typeof FAQ_CATEGORIES)[number];
export type FaqItem = { id: string; category: FaqCategory; q: string; a: string };
type FaqTexts = {
  title: string;
  intro: string;
  searchPlaceholder: string;
  searchLabel: string;
  noResults: string;
  contactPrompt: string;
  contactLink: string;
  /** The link to the four steps of /how-to-play, above the questions. */
  howToPlay: string;
  categories: Record<'all' | FaqCategory, string>;
};

const MAX_QUERY = 100;
const MAX_TERMS = 8;
const BN_DIGITS = '০১২৩৪৫৬৭৮৯';

/** One pattern per search word: case-insensitive, and a digit matches both its ASCII and its Bengali form. */
function termPattern(term: string): string {
  return [...term]
    .map((ch) => {
      const d = '0123456789'.indexOf(ch) >= 0 ? '0123456789'.indexOf(ch) : BN_DIGITS.indexOf(ch);
      return d >= 0 ? `[${d}${BN_DIGITS[d]}]` : ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
}

/** The words of a search (NFC, so both spellings of য়/ড়/ঢ় match), at most MAX_TERMS of them. */
export function searchTerms(q: string): string[] {
  const words = q.normalize('NFC').trim().slice(0, MAX_QUERY).split(/\s+/).filter(Boolean);
  return [...new Set(words)].slice(0, MAX_TERMS);
}

const matchers = (q: string) => searchTerms(q).map((w) => new RegExp(termPattern(w), 'iu'));

/** Items of a category (or all) whose question or answer contains every word of the search. */
export function filterFaq(items: FaqItem[], category: FaqCategory | 'all', q: string): FaqItem[] {
  const res = matchers(q);
  return items.filter((it) => {
    if (category !== 'all' && it.category !== category) return false;
    const q2 = it.q.normalize('NFC'),
      a2 = it.a.normalize('NFC');
    return res.every((re) => re.test(q2) || re.test(a2));
  });
}

const isCategory = (c: string | null): c is FaqCategory => FAQ_CATEGORIES.includes(c as FaqCategory);

/** Filtered by the URL alone (never by who asks), so the page is the same for every visitor of a language. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const cat = url.searchParams.get('category');
  const category: FaqCategory | 'all' = isCategory(cat) ? cat : 'all';
  const q = (url.searchParams.get('q') ?? '').trim().slice(0, MAX_QUERY);
  const { items: itemTexts, ...texts } = (await localeOf(context).namespace('content')).faq as FaqTexts & {
    items: Record<string, { q: string; a: string }>;
  };
  const items: FaqItem[] = FAQ_CATALOGUE.map(({ id, category }) => ({
    id,
    category,
    q: itemTexts[id]?.q ?? '',
    a: itemTexts[id]?.a ?? '',
  }));
  return { texts, category, q, items: filterFaq(items, category, q), total: items.length };
}

/** The search words in a text, marked. Built from the URL, so the server and the browser render the same. */
function Marked({ text, q }: { text: string; q: string }) {
  const terms = searchTerms(q);
  if (!terms.length) return <>{text}</>;
  const parts = text.normalize('NFC').split(new RegExp(`(${terms.map(termPattern).join('|')})`, 'iu'));
  return <>{parts.map((p, i) => (i % 2 ? <mark key={i}>{p}</mark> : p))}</>;
}

export function Component() {
  const { t, i18n } = useTranslation();
  const { texts, category, q, items, total } = useLoaderData<typeof loader>();
  const submit = useSubmit();
  const input = useRef<HTMLInputElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const lng = i18n.language;
  const filtered = category !== 'all' || q !== '';
  const res = matchers(q);
  const href = (c: FaqCategory | 'all', query = q) => withQuery(paths.faq, { category: c === 'all' ? null : c, q: query || null });

  // Back/forward and the chips change q without typing: keep the box in step unless the visitor is typing in it.
  useEffect(() => {
    if (input.current && document.activeElement !== input.current) input.current.value = q;
  }, [q]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const onType = (e: ChangeEvent<HTMLInputElement>) => {
    const value = e.currentTarget.value.trim();
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      const params = new URLSearchParams();
      if (category !== 'all') params.set('category', category);
      if (value) params.set('q', value);
      void submit(params, { method: 'get', action: paths.faq, replace: true, preventScrollReset: true });
    }, 250);
  };

  return (
    <>
      <Head title={t('title', { page: texts.title })} description={texts.intro} />
      <PageHead title={texts.title} lead={texts.intro} />
      <div className="container narrow faq">
        <p className="faq__how">
          <Link to={paths.howToPlay}>{texts.howToPlay}</Link>
        </p>
        <Form method="get" action={paths.faq} role="search" className="faq__search" preventScrollReset>
          {category !== 'all' ? <input type="hidden" name="category" value={category} /> : null}
          <label htmlFor="faq-q" className="visually-hidden">
            {texts.searchLabel}
          </label>
          <input
            ref={input}
            id="faq-q"
            type="search"
            name="q"
            defaultValue={q}
            maxLength={MAX_QUERY}
            placeholder={texts.searchPlaceholder}
            autoComplete="off"
            enterKeyHint="search"
            onChange={onType}
          />
          <button type="submit" className="btn btn-primary" aria-label={t('pages.faq.search')}>
            <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
              <path
                fill="currentColor"
                d="M10 3a7 7 0 0 1 5.6 11.2l5.1 5.1-1.4 1.4-5.1-5.1A7 7 0 1 1 10 3Zm0 2a5 5 0 1 0 0 10 5 5 0 0 0 0-10Z"
              />
            </svg>
            <span className="faq__search-label">{t('pages.faq.search')}</span>
          </button>
        </Form>

        <nav aria-label={t('pages.faq.categoriesLabel')}>
          <ul className="chips">
            {(['all', ...FAQ_CATEGORIES] as const).map((c) => (
              <li key={c}>
                <Link to={href(c)} className="chip" aria-current={c === category ? 'page' : undefined} preventScrollReset>
                  {texts.categories[c]}
                </Link>
              </li>
            ))}
          </ul>
        </nav>

        <p className="faq__status muted" role="status">
          {filtered && items.length ? t('pages.faq.showing', { n: formatNumber(items.length, lng), total: formatNumber(total, lng) }) : ''}
          {filtered && items.length && q ? ' · ' : null}
          {q ? (
            <Link to={href(category, '')} preventScrollReset>
              {t('pages.faq.clearSearch')}
            </Link>
          ) : null}
        </p>

        {items.length ? (
          <div className="faq__list">
            {items.map((it) => (
              <details key={it.id} id={it.id} className="faq__item" open={res.some((re) => re.test(it.a.normalize('NFC')))}>
                <summary>
                  <Marked text={it.q} q={q} />
                </summary>
                <p>
                  <Marked text={it.a} q={q} />
                </p>
              </details>
            ))}
          </div>
        ) : (
          <div className="empty">
            <p>{texts.noResults}</p>
            <Link to={paths.faq} className="btn btn-ghost btn-sm">
              {t('pages.faq.showAll')}
            </Link>
          </div>
        )}

        <aside className="faq__contact">
          <p>
            <strong>{texts.contactPrompt}</strong>
          </p>
          <Link to={paths.contact} className="btn btn-accent btn-sm">
            {texts.contactLink}
          </Link>
        </aside>
      </div>
    </>
  );
}
