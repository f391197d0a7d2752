/**
 * The SVG chart kit (views/components/charts.tsx, docs/rules/games.md#7-charts): its scale and labels, and what it
 * renders on the server — one bar per point and series, an image named and described, the same figures in a table,
 * Bengali digits on a Bengali page, and nothing wider than its box.
 */
import { renderToString } from 'react-dom/server';
import { formatNumber } from '../../shared/dates.ts';
import { formatTaka } from '../../shared/money.ts';
import { BarChart, evenTicks, niceScale, StepChart, stepPath, type Point } from '../../views/components/charts.tsx';
import { chartedDraw, dayMonth } from '../../views/admin/game-charts.tsx';

/** How many times `needle` occurs in `html`. */
const occurrences = (html: string, needle: string) => html.split(needle).length - 1;
/** The cells of the table's rows: each row's header and values, as text. */
function tableRows(html: string): string[][] {
  const body = html.slice(html.indexOf('<tbody>'), html.indexOf('</tbody>'));
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((r) =>
    [...(r[1] as string).matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((c) => (c[1] as string).replace(/<[^>]+>/g, '')),
  );
}

const points = (values: number[], lng: 'en' | 'bn' = 'en'): Point[] =>
  values.map((v, i) => ({ key: i, label: formatNumber(i + 1, lng), name: formatNumber(i + 1, lng), values: [v] }));

describe('the scale', () => {
  test.each([
    [0, 1, [0, 1]],
    [1, 1, [0, 1]],
    [3, 3, [0, 1, 2, 3]],
    [7, 8, [0, 2, 4, 6, 8]],
    [12, 15, [0, 5, 10, 15]],
    [40, 40, [0, 10, 20, 30, 40]],
    [1_234_567, 1_500_000, [0, 500_000, 1_000_000, 1_500_000]],
  ])('a highest value of %d has its top at %d and whole, round grid lines %j', (max, top, ticks) => {
    const s = niceScale(max);
    expect(s.top).toBe(top);
    expect(s.ticks).toEqual(ticks);
    expect(s.top).toBeGreaterThanOrEqual(max);
    expect(s.ticks.every((v) => Number.isInteger(v))).toBe(true);
  });

  test('labels under the axis: all when they fit, else evenly spaced with the first and the last', () => {
    expect([...evenTicks(4, 5)]).toEqual([0, 1, 2, 3]);
    expect([...evenTicks(7, 4)].sort((a, b) => a - b)).toEqual([0, 2, 4, 6]);
    const many = [...evenTicks(30, 4)].sort((a, b) => a - b);
    expect(many[0]).toBe(0);
    expect(many.at(-1)).toBe(29);
    expect(many.length).toBeLessThanOrEqual(4);
  });

  test('the step line holds each value across its slot, from the bottom up to the top of the scale', () => {
    expect(stepPath([0, 5, 10], 10, 100)).toBe('M 0 100 H 1 V 50 H 2 V 0 H 3');
    expect(stepPath([], 10, 100)).toBe('');
  });
});

describe('a bar chart', () => {
  const render = (lng: 'en' | 'bn', values: number[], extra: Partial<Parameters<typeof BarChart>[0]> = {}) =>
    renderToString(
      <BarChart
        id="c"
        title="Tickets sold per day"
        desc="The most on day 3."
        points={points(values, lng)}
        series={[{ name: 'Tickets', tone: 'green' }]}
        format={(n) => formatNumber(n, lng)}
        head="Day"
        figures="Show the figures"
        {...extra}
      />,
    );

  test('one bar per point; an image named by its title and described; the figures in a table; as wide as its box', () => {
    const html = render('en', [3, 0, 12, 1_500]);
    expect(occurrences(html, 'class="chart__bar ')).toBe(4);
    expect(html).toMatch(/<svg[^>]*role="img"[^>]*aria-labelledby="c-title"[^>]*aria-describedby="c-desc"/);
    expect(html).toContain('<title id="c-title">Tickets sold per day</title>');
    expect(html).toContain('<desc id="c-desc">The most on day 3.</desc>');
    expect(html).toMatch(/<svg[^>]*width="100%"/);
    // The plot stretches to the width; the texts keep their size.
    expect(html).toContain('viewBox="0 0 4 150"');
    expect(html).toContain('preserveAspectRatio="none"');
    expect(html).toContain('<details class="chart__figures"><summary>Show the figures</summary>');
    expect(tableRows(html)).toEqual([
      ['1', '3'],
      ['2', '0'],
      ['3', '12'],
      ['4', '1,500'],
    ]);
    // The axis goes to a round value at or above the highest, its grid lines labelled.
    expect([...html.matchAll(/class="chart__value"[^>]*>([^<]*)</g)].map((m) => m[1])).toEqual(['500', '1,000', '1,500']);
  });

  test('a bar is as high as its value on the scale', () => {
    const html = render('en', [5, 10]);
    const heights = [...html.matchAll(/class="chart__bar [^"]*"[^>]*height="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(heights).toEqual([75, 150]);
  });

  test('in Bengali every figure is in Bengali digits, in the SVG and in the table', () => {
    const html = render('bn', [3, 0, 12, 1_500]);
    expect(tableRows(html)).toEqual([
      ['১', '৩'],
      ['২', '০'],
      ['৩', '১২'],
      ['৪', '১,৫০০'],
    ]);
    const texts = [...html.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1] as string);
    expect(texts.length).toBeGreaterThan(0);
    for (const text of texts) expect(text).not.toMatch(/[0-9]/);
    expect(texts).toContain('১,৫০০');
  });

  test('stacked: one segment per point and series, a legend, and a total column', () => {
    const html = renderToString(
      <BarChart
        id="owed"
        title="Money owed to winners"
        desc="…"
        points={[
          { key: 1, label: '5 Dec', name: '5 Dec 2026', values: [100, 200, 300, 0] },
          { key: 2, label: '12 Dec', name: '12 Dec 2026', values: [0, 0, 5_000, 400] },
        ]}
        series={[
          { name: 'Paid out', tone: 'green' },
          { name: 'Claimed', tone: 'gold' },
          { name: 'Not claimed', tone: 'grey' },
          { name: 'Withheld', tone: 'red' },
        ]}
        total="Total"
        format={(n) => formatTaka(n, 'en')}
        head="Draw"
        figures="Show the figures"
      />,
    );
    expect(occurrences(html, 'class="chart__bar ')).toBe(8);
    expect(occurrences(html, 'chart__swatch--')).toBe(4);
    expect(tableRows(html)).toEqual([
      ['5 Dec 2026', 'TK. 100', 'TK. 200', 'TK. 300', 'TK. 0', 'TK. 600'],
      ['12 Dec 2026', 'TK. 0', 'TK. 0', 'TK. 5,000', 'TK. 400', 'TK. 5,400'],
    ]);
  });

  test('in rows on a narrow screen: the wide and the narrow chart both there, each with every bar; one table', () => {
    const html = render(
      'en',
      Array.from({ length: 55 }, (_, i) => i % 4),
      { narrowRows: 4 },
    );
    expect(occurrences(html, 'class="chart__bar ')).toBe(110);
    expect(occurrences(html, 'chart__svg--wide')).toBe(1);
    expect(occurrences(html, 'chart__svg--narrow')).toBe(1);
    expect(occurrences(html, '<table')).toBe(1);
    expect(tableRows(html)).toHaveLength(55);
    // One plot of 55 for a wide screen; four lower ones of 14, 14, 14 and 13 for a phone, every bar labelled.
    expect(occurrences(html, 'viewBox="0 0 55 150"')).toBe(1);
    expect(occurrences(html, 'viewBox="0 0 14 90"')).toBe(3);
    expect(occurrences(html, 'viewBox="0 0 13 90"')).toBe(1);
    const narrow = html.slice(html.indexOf('chart__svg--narrow'));
    expect(occurrences(narrow, 'class="chart__label"')).toBe(55);
    expect(html).toContain('aria-labelledby="c-rows-title"');
  });

  test('only the labels asked for are under the axis', () => {
    const html = render(
      'en',
      Array.from({ length: 55 }, () => 1),
      { tick: (i: number) => i === 0 || (i + 1) % 5 === 0 },
    );
    const labels = [...html.matchAll(/class="chart__label"[^>]*>([^<]*)</g)].map((m) => m[1]);
    expect(labels).toEqual(['1', '5', '10', '15', '20', '25', '30', '35', '40', '45', '50', '55']);
  });
  test('without a choice of labels: a few always, as many again for a wide screen', () => {
    const html = render('en', [1, 2, 3, 4, 5, 6, 7, 8], { maxLabels: 4 });
    const always = [...html.matchAll(/class="chart__label"[^>]*>([^<]*)</g)].map((m) => m[1]);
    const wide = [...html.matchAll(/class="chart__label chart__label--wide"[^>]*>([^<]*)</g)].map((m) => m[1]);
    expect(always).toEqual(['1', '4', '8']);
    expect(wide).toEqual(['2', '3', '5', '6', '7']);
  });
});

describe('a step chart', () => {
  test('one line through the running total, its figures in a table, in taka', () => {
    const html = renderToString(
      <StepChart
        id="j"
        title="The jackpot as it grows"
        desc="…"
        points={[
          { key: 'a', label: '১ ডিসেম্বর', name: '১ ডিসেম্বর ২০২৬', values: [5_000] },
          { key: 'b', label: '২ ডিসেম্বর', name: '২ ডিসেম্বর ২০২৬', values: [15_050] },
        ]}
        series={{ name: 'জ্যাকপট', tone: 'gold' }}
        format={(n) => formatTaka(n, 'bn')}
        head="দিন"
        figures="সংখ্যাগুলো টেবিলে দেখুন"
      />,
    );
    expect(occurrences(html, 'class="chart__line ')).toBe(1);
    expect(html).toContain('vector-effect="non-scaling-stroke"');
    expect(tableRows(html)).toEqual([
      ['১ ডিসেম্বর ২০২৬', '৳৫,০০০'],
      ['২ ডিসেম্বর ২০২৬', '৳১৫,০৫০'],
    ]);
    expect(html).toContain('role="img"');
  });
});

describe("the game page's helpers", () => {
  test('a date under an axis has no year', () => {
    expect(dayMonth('2026-12-05', 'en')).toBe('5 Dec');
    expect(dayMonth('2026-12-05', 'bn')).toBe('৫ ডিসেম্বর');
  });

  test('the draw charted: the one asked for, else the next on sale, else the latest closed, else the latest drawn', () => {
    const draw = (lottery_id: number, state: 'on_sale' | 'closed' | 'drawn') => ({
      lottery_id,
      state,
      draw_at: '',
      end_date: '',
      tickets_sold: 0,
      jackpot: 0,
      days: [],
      tickets_before: 0,
      owed: null,
    });
    // The latest first, as the API lists them.
    const stats = { game_id: 1, draws: [draw(5, 'on_sale'), draw(4, 'on_sale'), draw(3, 'closed'), draw(2, 'drawn')] };
    expect(chartedDraw(stats, 2)?.lottery_id).toBe(2);
    expect(chartedDraw(stats, null)?.lottery_id).toBe(4);
    expect(chartedDraw(stats, 99)?.lottery_id).toBe(4);
    expect(chartedDraw({ game_id: 1, draws: stats.draws.slice(2) }, null)?.lottery_id).toBe(3);
    expect(chartedDraw({ game_id: 1, draws: stats.draws.slice(3) }, null)?.lottery_id).toBe(2);
    expect(chartedDraw({ game_id: 1, draws: [] }, null)).toBeNull();
  });
});
