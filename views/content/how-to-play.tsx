import type { ReactNode } from 'react';
import { useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { formatNumber } from '../../shared/dates.ts';
import { useTranslation } from '../i18n.tsx';
import { localeOf } from '../context.ts';
import { Head } from '../components/head.tsx';
import { PageHead } from '../components/page-head.tsx';
import { contentLink, type ContentLink } from './link.ts';

/** The four steps, in order, each with its picture; their texts are locales/<lng>/content.json `howToPlay.steps.<step>`. */
export const HOW_TO_PLAY_STEPS = ['pick', 'pay', 'check', 'claim'] as const;
type Step = (typeof HOW_TO_PLAY_STEPS)[number];

type StepText = { heading: string; paragraphs: string[]; picture: string; link?: ContentLink };
type HowToPlayTexts = { title: string; intro: string; steps: Record<Step, StepText> };

export async function loader({ context }: LoaderFunctionArgs) {
  const doc = (await localeOf(context).namespace('content')).howToPlay as HowToPlayTexts;
  return { doc };
}

const GREEN = '#1f7a4d';
const GOLD = '#f2b705';
const LINE = '#cfded5';
const BKASH = '#d1125f';

/** A 5 × 3 grid of numbers, five picked (green) and the last number (gold). */
function PickPicture() {
  const picked = new Set([1, 5, 7, 11, 13]);
  return (
    <>
      <rect x="8" y="8" width="144" height="104" rx="10" fill="#fff" stroke={LINE} strokeWidth="2" />
      {Array.from({ length: 15 }, (_, i) => (
        <circle
          key={i}
          cx={30 + (i % 5) * 25}
          cy={32 + Math.floor(i / 5) * 26}
          r="9"
          fill={picked.has(i) ? GREEN : '#fff'}
          stroke={picked.has(i) ? GREEN : LINE}
          strokeWidth="2"
        />
      ))}
      <circle cx="130" cy="98" r="11" fill={GOLD} stroke="#fff" strokeWidth="2" />
    </>
  );
}

/** A phone with a payment screen and a tick: the payment confirmed. */
function PayPicture() {
  return (
    <>
      <rect x="50" y="6" width="60" height="108" rx="10" fill="#fff" stroke={LINE} strokeWidth="2" />
      <rect x="56" y="16" width="48" height="18" rx="3" fill={BKASH} />
      <rect x="60" y="44" width="40" height="6" rx="3" fill={LINE} />
      <rect x="60" y="56" width="28" height="6" rx="3" fill={LINE} />
      <circle cx="80" cy="86" r="13" fill={GREEN} />
      <path d="M73 86l5 5 9-10" fill="none" stroke="#fff" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" />
    </>
  );
}

/** A ticket whose numbers are matched against the draw: three rings mark the hits. */
function CheckPicture() {
  return (
    <>
      <path
        d="M10 28a6 6 0 0 1 6-6h128a6 6 0 0 1 6 6v16a10 10 0 0 0 0 20v16a6 6 0 0 1-6 6H16a6 6 0 0 1-6-6V64a10 10 0 0 0 0-20V28Z"
        fill="#fff"
        stroke={LINE}
        strokeWidth="2"
      />
      {[0, 1, 2, 3, 4, 5].map((i) => (
        <circle key={i} cx={30 + i * 20} cy="54" r="6.5" fill={i === 5 ? GOLD : GREEN} opacity={i === 1 || i === 3 ? 0.35 : 1} />
      ))}
      {[0, 2, 4].map((i) => (
        <circle key={i} cx={30 + i * 20} cy="54" r="9.5" fill="none" stroke={GOLD} strokeWidth="2" />
      ))}
      <rect x="30" y="96" width="100" height="8" rx="4" fill={LINE} />
    </>
  );
}

/** A trophy and a wallet receiving the prize. */
function ClaimPicture() {
  return (
    <>
      <path
        d="M28 20h36v10h10v8a16 16 0 0 1-16 16h-1a18 18 0 0 1-9 8v8h10v8H34v-8h10v-8a18 18 0 0 1-9-8h-1A16 16 0 0 1 18 38v-8h10V20Zm0 18v-2h-4v2a8 8 0 0 0 4 6v-6Zm36 0v6a8 8 0 0 0 4-6v-2h-4v2Z"
        fill={GOLD}
      />
      <rect x="84" y="44" width="64" height="44" rx="8" fill={GREEN} />
      <rect x="124" y="58" width="24" height="16" rx="4" fill="#fff" opacity="0.9" />
      <circle cx="132" cy="66" r="3" fill={GREEN} />
      <path d="M76 66h-8m8 0-5-5m5 5-5 5" stroke={GREEN} strokeWidth="3" fill="none" strokeLinecap="round" strokeLinejoin="round" />
    </>
  );
}

const PICTURES: Record<Step, () => ReactNode> = { pick: PickPicture, pay: PayPicture, check: CheckPicture, claim: ClaimPicture };

/**
 * How to play: pick, pay, check, claim (docs/rules/pages.md#10-finding-your-way). A shared page, the same for every
 * visitor of a language; its pictures are inline SVG, drawn on the server, each named by its text.
 */
export function Component() {
  const { t, i18n } = useTranslation();
  const { doc } = useLoaderData<typeof loader>();
  return (
    <>
      <Head title={t('title', { page: doc.title })} description={doc.intro} />
      <PageHead title={doc.title} lead={doc.intro} />
      <div className="container narrow doc">
        <ol className="how-to-play">
          {HOW_TO_PLAY_STEPS.map((step, i) => {
            const s = doc.steps[step];
            const Picture = PICTURES[step];
            const link = contentLink(s.link);
            return (
              <li key={step} id={step} className="how-to-play__step" aria-labelledby={`${step}-h`}>
                <svg className="how-to-play__picture" viewBox="0 0 160 120" width="160" height="120" role="img" aria-label={s.picture}>
                  <Picture />
                </svg>
                <div className="prose">
                  <h2 id={`${step}-h`}>
                    <span className="how-to-play__n" aria-hidden="true">
                      {t('pages.howToPlay.step', { n: formatNumber(i + 1, i18n.language) })}
                    </span>{' '}
                    {s.heading}
                  </h2>
                  {s.paragraphs.map((p, j) => (
                    <p key={j}>{p}</p>
                  ))}
                  {link ? (
                    <p>
                      <a href={link.to}>{link.text}</a>
                    </p>
                  ) : null}
                </div>
              </li>
            );
          })}
        </ol>
      </div>
    </>
  );
}
