import { useEffect, useState, useSyncExternalStore } from 'react';
import { formatNumber, toDigits } from '../../shared/dates.ts';
import { paths } from '../../shared/paths.ts';
import { useTranslation } from '../i18n.tsx';
import { useHydrated } from '../components/use-hydrated.ts';

type Slide = { eyebrow: string; title: string; text: string };

export const SLIDE_MS = 3000;
/** The balls drawn on each slide (pure CSS art, nothing to download); the last one is the gold/red ball. */
const ART: number[][] = [
  [7, 19, 23, 41, 52, 9],
  [11, 28, 35, 3],
  [5, 14, 27, 38, 49, 12],
  [21, 33, 8],
  [18, 1],
];

/**
 * Home page island: five slides that advance every 3 s (docs/rules/pages.md#5-home-page) — but never for visitors who ask for reduced
 * motion, and not while the pointer or keyboard focus is inside; a pause/play button stops it (WCAG 2.2.2).
 * Only the current slide is exposed; the server renders the first, so without JavaScript it simply stays.
 */
const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';
const prefersReducedMotion = () => window.matchMedia(REDUCED_MOTION).matches;
function subscribeReducedMotion(onChange: () => void): () => void {
  const q = window.matchMedia(REDUCED_MOTION);
  q.addEventListener('change', onChange);
  return () => q.removeEventListener('change', onChange);
}

export function HeroSlideshow() {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('home');
  const raw = t<Slide[] | string>('hero.slides', { returnObjects: true });
  const slides = Array.isArray(raw) ? raw : [];
  const [current, setCurrent] = useState(0);
  // Until the visitor presses play or pause, the slideshow moves unless the system asks for reduced motion.
  const [chosen, setChosen] = useState<boolean | null>(null);
  const reducedMotion = useSyncExternalStore(subscribeReducedMotion, prefersReducedMotion, () => false);
  const playing = chosen ?? !reducedMotion;
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const ready = useHydrated();

  const running = ready && playing && !hovered && !focused && slides.length > 1;
  useEffect(() => {
    if (!running) return;
    const id = window.setTimeout(() => setCurrent((c) => (c + 1) % slides.length), SLIDE_MS);
    return () => window.clearTimeout(id);
  }, [running, current, slides.length]);

  const n = (i: number) => formatNumber(i, lng);
  return (
    <section
      className="hero"
      aria-roledescription={t('hero.carousel')}
      aria-label={t('hero.label')}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocused(false);
      }}
    >
      <div className="container hero__inner">
        <div className="hero__slides" aria-live={running ? 'off' : 'polite'}>
          {slides.map((s, i) => (
            <div
              key={i}
              className={`hero__slide hero__slide--${i + 1}${i === current ? ' is-current' : ''}`}
              role="group"
              aria-roledescription={t('hero.slide')}
              aria-label={t('hero.slideOf', { n: n(i + 1), total: n(slides.length) })}
              aria-hidden={i === current ? undefined : true}
              inert={i === current ? undefined : true}
            >
              <div className="hero__text">
                <p className="hero__eyebrow">{s.eyebrow}</p>
                <h2 className="hero__title">{s.title}</h2>
                <p className="hero__lead">{s.text}</p>
              </div>
              <div className="hero__art" aria-hidden="true">
                {(ART[i] ?? []).map((b, j, all) => (
                  <span key={j} className={`hero-ball${j === all.length - 1 ? ' hero-ball--last' : ''}`}>
                    {toDigits(String(b).padStart(2, '0'), lng)}
                  </span>
                ))}
              </div>
            </div>
          ))}
        </div>
        <div className="hero__cta">
          <a className="btn btn-accent" href="#quick-play">
            {t('hero.getStarted')}
          </a>
          <a className="btn btn-light" href={paths.allLotteries}>
            {t('hero.explore')}
          </a>
        </div>
        {/* Controls need JavaScript: hidden (space kept, no layout shift) until the island runs. */}
        <div className={`hero__controls${ready ? ' is-ready' : ''}`}>
          <button
            type="button"
            className="hero__toggle"
            onClick={() => setChosen(!playing)}
            aria-label={playing ? t('hero.pause') : t('hero.play')}
          >
            {playing ? (
              <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">
                <path fill="currentColor" d="M4 2h3v12H4zM9 2h3v12H9z" />
              </svg>
            ) : (
              <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">
                <path fill="currentColor" d="M4 2l10 6-10 6z" />
              </svg>
            )}
          </button>
          <div className="hero__dots" role="group" aria-label={t('hero.dots')}>
            {slides.map((s, i) => (
              <button
                key={i}
                type="button"
                className="hero__dot"
                aria-label={t('hero.goTo', { n: n(i + 1), title: s.title })}
                aria-current={i === current ? 'true' : undefined}
                onClick={() => setCurrent(i)}
              />
            ))}
          </div>
        </div>
      </div>
    </section>
  );
}
