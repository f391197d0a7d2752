/**
 * Every link into the documentation resolves (docs/decisions/063-where-the-weight-is.md): each relative link and
 * `#anchor` in docs/**\/*.md, and each `docs/….md#anchor` a comment or text cites in server/, shared/, views/, client/,
 * scripts/ and tests/. An anchor is a heading of the file it names, made into its slug as GitHub makes it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const rel = (abs: string) => path.relative(root, abs).split(path.sep).join('/');

function filesUnder(dir: string, keep: (f: string) => boolean): string[] {
  const abs = path.join(root, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs, { recursive: true, encoding: 'utf8' })
    .map((f) => path.join(abs, f))
    .filter((f) => keep(f) && statSync(f).isFile());
}

/** GitHub's slug of a heading: its text as shown, lower case, without punctuation, spaces made hyphens. */
export function slugOf(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link shows its text
    .replace(/<[^>]+>/g, '') // HTML tags show nothing
    .replace(/[`*~]/g, '') // code and emphasis marks
    .replace(/(^|\s)_+|_+(\s|$)/g, '$1$2') // _emphasis_ (an underscore inside a word stays)
    .trim();
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

const anchorsCache = new Map<string, Set<string>>();
/** The anchors of a Markdown file: its headings' slugs (a repeated one numbered -1, -2, …) and any `<a id|name>`. */
export function anchorsOf(markdown: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | null = null;
  for (const line of markdown.split('\n')) {
    const f = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (f && (fence === null || f.startsWith(fence))) {
      fence = fence === null ? f : null;
      continue;
    }
    if (fence !== null) continue;
    const h = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (h?.[1] !== undefined) {
      const base = slugOf(h[1]);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      out.add(n ? `${base}-${n}` : base);
    }
    for (const m of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) if (m[1]) out.add(m[1]);
  }
  return out;
}
const anchorsOfFile = (abs: string) => {
  let a = anchorsCache.get(abs);
  if (!a) anchorsCache.set(abs, (a = anchorsOf(readFileSync(abs, 'utf8'))));
  return a;
};

/** What is wrong with a link to `target` (a path, maybe with `#anchor`) from `fromDir`, or null. */
function problem(fromDir: string, target: string): string | null {
  const [file = '', anchor] = target.split('#');
  const abs = file ? path.resolve(fromDir, decodeURIComponent(file)) : null;
  if (abs && !existsSync(abs)) return `${rel(abs)} does not exist`;
  if (anchor === undefined || anchor === '') return null;
  const md = abs ?? null;
  if (!md || !md.endsWith('.md') || !statSync(md).isFile()) return null;
  return anchorsOfFile(md).has(decodeURIComponent(anchor)) ? null : `${rel(md)} has no heading #${anchor}`;
}

type Link = { where: string; target: string; fromDir: string };

/** The relative links of the documentation's Markdown: `[text](target)` and `[label]: target`, outside code. */
function markdownLinks(): Link[] {
  const out: Link[] = [];
  for (const abs of filesUnder('docs', (f) => f.endsWith('.md'))) {
    const text = readFileSync(abs, 'utf8')
      .replace(/```[\s\S]*?```/g, '')
      .replace(/`[^`\n]*`/g, '');
    const lines = text.split('\n');
    lines.forEach((line, i) => {
      const found = [...line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g), ...line.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/g)];
      for (const m of found) {
        const target = m[1] ?? '';
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
        out.push({
          where: `${rel(abs)}:${i + 1}`,
          target: target.startsWith('#') ? `${path.basename(abs)}${target}` : target,
          fromDir: path.dirname(abs),
        });
      }
    });
  }
  return out;
}

/** Every `docs/….md` (with or without an anchor) cited in the code, the tests and the scripts. */
function citedInCode(): Link[] {
  const out: Link[] = [];
  const code = (f: string) => /\.(ts|tsx|js|mjs|css|sh|json|ya?ml)$/.test(f) && !f.includes(`${path.sep}node_modules${path.sep}`);
  for (const dir of ['server', 'shared', 'views', 'client', 'scripts', 'tests'])
    for (const abs of filesUnder(dir, code)) {
      const lines = readFileSync(abs, 'utf8').split('\n');
      lines.forEach((line, i) => {
        for (const m of line.matchAll(/(?<![\w./-])docs\/[\w./-]*?\.md(#[\w-]+)?/g))
          out.push({ where: `${rel(abs)}:${i + 1}`, target: m[0], fromDir: root });
      });
    }
  return out;
}

describe('links into the documentation', () => {
  test('the scan finds the links it is meant to check', () => {
    expect(markdownLinks().length).toBeGreaterThan(50);
    expect(citedInCode().length).toBeGreaterThan(50);
  });

  test('every relative link and #anchor in docs/**/*.md resolves', () => {
    const broken = markdownLinks()
      .map((l) => ({ ...l, problem: problem(l.fromDir, l.target) }))
      .filter((l) => l.problem)
      .map((l) => `${l.where}: (${l.target}) ${l.problem}`);
    expect(broken).toEqual([]);
  });

  test('every docs/….md#anchor cited in server/, shared/, views/, client/, scripts/ and tests/ resolves', () => {
    const broken = citedInCode()
      .map((l) => ({ ...l, problem: problem(l.fromDir, l.target) }))
      .filter((l) => l.problem)
      .map((l) => `${l.where}: ${l.target}: ${l.problem}`);
    expect(broken).toEqual([]);
  });
});

describe("GitHub's anchors", () => {
  test('a heading becomes its slug: lower case, punctuation dropped, spaces made hyphens, letters of any script kept', () => {
    expect(slugOf('8. Settling once')).toBe('8-settling-once');
    expect(slugOf('2. Canonical text form (`01-02`)')).toBe('2-canonical-text-form-01-02');
    expect(slugOf('Money & time: taka, [digits](x.md)')).toBe('money--time-taka-digits');
    expect(slugOf('ভাগ্য — বাংলা')).toBe('ভাগ্য--বাংলা');
    expect(slugOf('snake_case stays')).toBe('snake_case-stays');
  });
  test('a repeated heading is numbered, fenced code is no heading, an HTML anchor counts', () => {
    const a = anchorsOf('# Notes\n## Notes\n```\n# not a heading\n```\n<a id="kept"></a>\n');
    expect([...a].sort()).toEqual(['kept', 'notes', 'notes-1']);
  });
});
