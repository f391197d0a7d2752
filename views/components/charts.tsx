/**
 * Charts drawn as plain SVG by the server (docs/rules/games.md#7-charts): a bar chart (stacked when it has several
 * series) and a step chart of a running total, no JavaScript and no library. Each chart is one `role="img"` SVG named
 * by its `<title>` and described by its `<desc>`, with the same figures in a real table below it, in a
 * `<details>` ("Show the figures") that anyone can open. Values and labels come formatted by the caller
 * (formatNumber, formatTaka, formatDate: Bengali digits on a Bengali page); colours are the site's (views/styles/charts.css).
 *
 * The SVG is as wide as its box (`width="100%"`, never wider than a phone's screen) and of a fixed height: its plot is
 * an inner SVG whose `viewBox` is stretched to the width (`preserveAspectRatio="none"`, its lines kept 1–2 px thick by
 * `vector-effect`), while its texts are placed by percentages in the outer SVG and keep their size at any width. A
 * chart scaled down as a whole would shrink its labels below reading size on a 360 px screen.
 */
import type { ReactNode } from 'react';

/** A series' colour (views/styles/charts.css). */
export type Tone = 'green' | 'gold' | 'grey' | 'red';

/** A series of values: its name (legend, table column) and its colour. */
export type Series = { name: string; tone: Tone };

/** One bar or step: its label under the axis (short), its name in the table (whole), and one value per series. */
export type Point = { key: string | number; label: string; name: string; values: readonly number[] };

type Common = {
  /** Unique on the page: the ids of the title and description are made from it. */
  id: string;
  /** What the chart shows: the SVG's accessible name and the table's caption. */
  title: string;
  /** What it says, in a sentence or two (the highest value…), read after the name; the figures are in the table. */
  desc: string;
  points: readonly Point[];
  /** A value as text: the axis and the table. */
  format: (n: number) => string;
  /** The table's first column: what a point is (Day, Number, Draw). */
  head: string;
  /** The summary of the figures' `<details>`: "Show the figures". */
  figures: string;
  /** Which points get their label under the axis (all when they fit; else evenly spaced, first and last among them). */
  tick?: (i: number, n: number) => boolean;
  /** The labels under the axis at most, when `tick` is not given. */
  maxLabels?: number;
  /** The plot's height in px (without the labels). */
  height?: number;
};

/** Space above the plot (the top value's label) and below it (the labels under the axis), px. */
const TOP = 16;
const BOTTOM = 22;
/** The narrowest plot a chart is laid out for: a 360 px screen less the page's and the chart box's padding. */
const NARROWEST = 290;
/** About how wide a character of a label is on a phone (12 px text), px: digits, Latin and Bengali letters alike. */
const CHAR_PX = 7;

/** The axis's scale: its top (a round value ≥ the highest) and the values of its grid lines, from 0. */
export function niceScale(max: number, lines = 4): { top: number; step: number; ticks: number[] } {
  if (!(max > 0)) return { top: 1, step: 1, ticks: [0, 1] };
  const raw = max / lines;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = Math.max(1, ([1, 2, 5, 10].find((m) => m * magnitude >= raw) ?? 10) * magnitude);
  const top = Math.ceil(max / step) * step;
  const ticks: number[] = [];
  for (let v = 0; v <= top; v += step) ticks.push(v);
  return { top, step, ticks };
}

/** At most `max` of `n` points' indices, evenly spaced, the first and the last among them. */
export function evenTicks(n: number, max: number): Set<number> {
  if (n <= max) return new Set(Array.from({ length: n }, (_, i) => i));
  const every = Math.ceil((n - 1) / Math.max(1, max - 1));
  const out = new Set<number>();
  for (let i = 0; i < n - 1; i += every) out.add(i);
  // The last label, without the one before it when the two would touch.
  const before = Math.max(...out);
  if (n - 1 - before < every / 2) out.delete(before);
  out.add(n - 1);
  return out;
}

/** The sum of a point's values (a stacked bar's height). */
const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
const pct = (x: number) => `${Math.round(x * 10_000) / 100}%`;

type Band = { points: readonly Point[]; first: number };

/**
 * Which labels under the axis a band shows, and how each is anchored so that none runs past the chart's edges. Without
 * `tick`: `maxLabels` evenly spaced ones always, and as many again on a wide screen (`chart__label--wide`, shown by CSS
 * from 1100 px), where a day's label has room.
 */
function labelsOf(band: Band, all: number, tick: Common['tick'], maxLabels: number, y: number): ReactNode[] {
  const n = band.points.length;
  const shown = tick ? null : evenTicks(n, maxLabels);
  const wider = tick ? null : evenTicks(n, maxLabels * 2);
  const slot = NARROWEST / n;
  return band.points.map((p, i) => {
    const always = shown ? shown.has(i) : !!tick?.(band.first + i, all);
    if (!always && !wider?.has(i)) return null;
    // A label wider than its slot at the narrowest: the first one starts at the left edge, the last ends at the right.
    const wide = p.label.length * CHAR_PX > slot;
    const anchor = wide && i === 0 ? 'start' : wide && i === n - 1 ? 'end' : 'middle';
    const x = anchor === 'start' ? i / n : anchor === 'end' ? (i + 1) / n : (i + 0.5) / n;
    return (
      <text key={p.key} className={always ? 'chart__label' : 'chart__label chart__label--wide'} x={pct(x)} y={y} textAnchor={anchor}>
        {p.label}
      </text>
    );
  });
}

/** The grid lines and their values, over a plot `plotH` high starting at `top`. */
function grid(
  scale: ReturnType<typeof niceScale>,
  format: Common['format'],
  top: number,
  plotH: number,
): { lines: ReactNode; values: ReactNode } {
  const yOf = (v: number) => top + plotH - (v / scale.top) * plotH;
  return {
    lines: scale.ticks.map((v) => (
      <line key={v} className={v === 0 ? 'chart__axis' : 'chart__grid'} x1="0" x2="100%" y1={yOf(v)} y2={yOf(v)} />
    )),
    values: scale.ticks
      .filter((v) => v > 0)
      .map((v) => (
        <text key={v} className="chart__value" x="0" y={yOf(v) - 4}>
          {format(v)}
        </text>
      )),
  };
}

/** The SVG's accessible name and description. */
function Named({ id, title, desc }: { id: string; title: string; desc: string }) {
  return (
    <>
      <title id={`${id}-title`}>{title}</title>
      <desc id={`${id}-desc`}>{desc}</desc>
    </>
  );
}

/** One SVG of bars: the points in `rows` bands one under the other (1: all in one row), on one scale. */
function BarsSvg({
  id,
  title,
  desc,
  points,
  series,
  format,
  tick,
  maxLabels,
  height,
  rows,
  className,
}: Omit<Common, 'head' | 'figures'> & { series: readonly Series[]; rows: number; className: string; height: number; maxLabels: number }) {
  const scale = niceScale(Math.max(0, ...points.map((p) => sum(p.values))));
  const perRow = Math.ceil(points.length / rows) || 1;
  const bands: Band[] = [];
  for (let first = 0; first < points.length; first += perRow) bands.push({ points: points.slice(first, first + perRow), first });
  if (!bands.length) bands.push({ points: [], first: 0 });
  // Rows apart by a little more than a row's own labels.
  const bandH = TOP + height + BOTTOM + (bands.length > 1 ? 10 : 0);
  const gap = perRow < 10 ? 0.35 : 0.2;
  return (
    <svg
      className={`chart__svg ${className}`}
      role="img"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-desc`}
      width="100%"
      height={bandH * bands.length}
    >
      <Named id={id} title={title} desc={desc} />
      {bands.map((band, b) => {
        const top = b * bandH + TOP;
        const g = grid(scale, format, top, height);
        const n = Math.max(1, band.points.length);
        return (
          <g key={b}>
            {g.lines}
            <svg x="0" y={top} width="100%" height={height} viewBox={`0 0 ${n} ${height}`} preserveAspectRatio="none">
              {band.points.map((p, i) => {
                let base = height;
                return series.map((s, k) => {
                  const v = p.values[k] ?? 0;
                  const h = (v / scale.top) * height;
                  base -= h;
                  return (
                    <rect
                      key={`${p.key}-${k}`}
                      className={`chart__bar chart__bar--${s.tone}`}
                      x={i + gap / 2}
                      width={1 - gap}
                      y={base}
                      height={h}
                    >
                      <title>{series.length > 1 ? `${p.name} · ${s.name}: ${format(v)}` : `${p.name}: ${format(v)}`}</title>
                    </rect>
                  );
                });
              })}
            </svg>
            {g.values}
            {labelsOf(band, points.length, tick, maxLabels, top + height + 15)}
          </g>
        );
      })}
    </svg>
  );
}

/**
 * A bar chart: one bar per point, stacked when there are several series, on an axis from 0; a legend for several
 * series; the figures as a table (a total column, named `total`, for stacked bars). `narrowRows`: on a narrow screen
 * the bars are laid out in this many rows instead of one, each bar labelled, each row's plot lower (55 numbers read as
 * four rows of 14 on a phone), the wide and the narrow chart both in the page, CSS showing one (views/styles/charts.css).
 */
export function BarChart({
  series,
  total,
  narrowRows,
  height = 150,
  maxLabels = 5,
  ...c
}: Common & { series: readonly Series[]; total?: string; narrowRows?: number }) {
  const svg = { ...c, series, height, maxLabels };
  return (
    <figure className="chart">
      {narrowRows && narrowRows > 1 ? (
        <>
          <BarsSvg {...svg} rows={1} className="chart__svg--wide" />
          <BarsSvg
            {...svg}
            id={`${c.id}-rows`}
            rows={narrowRows}
            height={Math.round(height * 0.6)}
            className="chart__svg--narrow"
            tick={() => true}
          />
        </>
      ) : (
        <BarsSvg {...svg} rows={1} className="" />
      )}
      {series.length > 1 ? <Legend series={series} /> : null}
      <Figures {...c} series={series} total={series.length > 1 ? total : undefined} />
    </figure>
  );
}

/**
 * A step chart of a running total (a jackpot day by day): each point's value held across its slot, stepping up (or
 * down) to the next, the area under it shaded, on an axis from 0; the figures as a table.
 */
export function StepChart({ series, height = 150, maxLabels = 5, ...c }: Common & { series: Series }) {
  const values = c.points.map((p) => p.values[0] ?? 0);
  const scale = niceScale(Math.max(0, ...values));
  const n = Math.max(1, values.length);
  const g = grid(scale, c.format, TOP, height);
  const path = stepPath(values, scale.top, height);
  return (
    <figure className="chart">
      <svg
        className="chart__svg"
        role="img"
        aria-labelledby={`${c.id}-title`}
        aria-describedby={`${c.id}-desc`}
        width="100%"
        height={TOP + height + BOTTOM}
      >
        <Named id={c.id} title={c.title} desc={c.desc} />
        {g.lines}
        <svg x="0" y={TOP} width="100%" height={height} viewBox={`0 0 ${n} ${height}`} preserveAspectRatio="none">
          {path ? (
            <>
              <path className={`chart__area chart__area--${series.tone}`} d={`${path} V ${height} H 0 Z`} />
              <path className={`chart__line chart__line--${series.tone}`} d={path} vectorEffect="non-scaling-stroke" />
            </>
          ) : null}
          {c.points.map((p, i) => (
            // An invisible slot per point, for the value a mouse pointer shows over it.
            <rect key={p.key} className="chart__slot" x={i} width={1} y={0} height={height}>
              <title>{`${p.name}: ${c.format(values[i] ?? 0)}`}</title>
            </rect>
          ))}
        </svg>
        {g.values}
        {labelsOf({ points: c.points, first: 0 }, c.points.length, c.tick, maxLabels, TOP + height + 15)}
      </svg>
      <Figures {...c} series={[series]} />
    </figure>
  );
}

/** The step line through the values, in the plot's units (a slot 1 wide, `height` high); '' for no value. */
export function stepPath(values: readonly number[], top: number, height: number): string {
  if (!values.length) return '';
  const y = (v: number) => Math.round((height - (v / top) * height) * 100) / 100;
  return values.map((v, i) => (i === 0 ? `M 0 ${y(v)} H 1` : `V ${y(v)} H ${i + 1}`)).join(' ');
}

function Legend({ series }: { series: readonly Series[] }) {
  // The table below names the same series: the legend is for the eye.
  return (
    <ul className="chart__legend" aria-hidden="true">
      {series.map((s) => (
        <li key={s.name}>
          <span className={`chart__swatch chart__swatch--${s.tone}`} />
          {s.name}
        </li>
      ))}
    </ul>
  );
}

/** The chart's figures as a table, in a `<details>` under it. */
function Figures({
  title,
  points,
  series,
  format,
  head,
  figures,
  total,
}: Pick<Common, 'title' | 'points' | 'format' | 'head' | 'figures'> & { series: readonly Series[]; total?: string | undefined }) {
  return (
    <details className="chart__figures">
      <summary>{figures}</summary>
      {/* Focusable: a table wider than a phone scrolls sideways, by keyboard too. */}
      <div className="table-scroll" tabIndex={0} role="region" aria-label={title}>
        <table className="chart__table">
          <caption className="visually-hidden">{title}</caption>
          <thead>
            <tr>
              <th scope="col">{head}</th>
              {series.map((s) => (
                <th key={s.name} scope="col">
                  {s.name}
                </th>
              ))}
              {total ? <th scope="col">{total}</th> : null}
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr key={p.key}>
                <th scope="row">{p.name}</th>
                {series.map((s, k) => (
                  <td key={s.name}>{format(p.values[k] ?? 0)}</td>
                ))}
                {total ? <td>{format(sum(p.values))}</td> : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
