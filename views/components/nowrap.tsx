import { Fragment, type ReactNode } from 'react';
import { formatDate } from '../../shared/dates.ts';
import type { Language } from '../../shared/i18n.ts';
import { formatTaka } from '../../shared/money.ts';

/**
 * Amounts, dates and times are read as one word: `TK.` never ends a line with `1,000,000` on the next. Each is
 * rendered in a `.nowrap` element (views/styles/base.css); the text itself stays as formatTaka/formatDate write it.
 */

/** An amount of taka (formatTaka), on one line. */
export function Amount({ value, lng }: { value: number | string | bigint; lng: Language }) {
  return <span className="nowrap">{formatTaka(value, lng)}</span>;
}

/**
 * A date (formatDate), optionally with its time: the date and the time each stay on one line; a narrow column may
 * put the time on the next line, after the date's comma. `invalid` is shown for an unparseable date.
 */
export function DateTime({ value, lng, withTime = false, invalid }: { value: string; lng: Language; withTime?: boolean; invalid: string }) {
  const text = formatDate(value, lng, { withTime });
  if (text === null) return <>{invalid}</>;
  // formatDate writes `${date}, ${time}`; the time itself has no comma (8:00 PM, রাত ৮:০০).
  const cut = withTime ? text.lastIndexOf(', ') : -1;
  if (cut < 0) return <span className="nowrap">{text}</span>;
  return (
    <>
      <span className="nowrap">{text.slice(0, cut + 1)}</span> <span className="nowrap">{text.slice(cut + 2)}</span>
    </>
  );
}

/**
 * A translated sentence with elements in place of some of its `{{variables}}`:
 * `withElements((v) => t('buy.text', v), { price: <Amount … /> })`. The translator fills each variable with a
 * marker, and the sentence is cut at the markers.
 */
export function withElements(translate: (vars: Record<string, string>) => string, elements: Record<string, ReactNode>): ReactNode {
  const names = Object.keys(elements);
  // Private-use characters, which no translation contains.
  const vars = Object.fromEntries(names.map((n, i) => [n, `\uE000${i}\uE001`]));
  const parts = translate(vars).split(/\uE000(\d+)\uE001/);
  return parts.map((part, i) => <Fragment key={i}>{i % 2 === 1 ? elements[names[Number(part)] as string] : part}</Fragment>);
}
