import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { clientOptions, type Manifest } from '../../scripts/build-config.ts';
import { routes } from '../../views/routes.tsx';
import { flattenRoutes, handleOf } from '../helpers/routes.ts';

// The client is built as production builds it (into a temporary folder): the server preloads each page's chunk
// by the route's chunk name, so a name that is not in the manifest would load the page without its code.
let manifest: Manifest;
let out: string;
beforeAll(async () => {
  out = mkdtempSync(path.join(tmpdir(), 'bhagya-build-'));
  await esbuild.build({
    ...clientOptions(path.join(out, 'client')),
    outdir: path.join(out, 'client', 'assets'),
    minify: false,
    sourcemap: false,
    legalComments: 'none',
  });
  manifest = JSON.parse(readFileSync(path.join(out, 'client', 'manifest.json'), 'utf8')) as Manifest;
}, 120_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('build manifest', () => {
  test('has both entries', () => {
    expect(manifest.entry).toMatch(/^\/assets\/entry-\w+\.js$/);
    expect(manifest.islands).toMatch(/^\/assets\/islands-\w+\.js$/);
  });

  const chunks = [
    ...new Set(
      flattenRoutes(routes)
        .map(({ route }) => handleOf(route)?.chunk)
        .filter((c): c is string => !!c),
    ),
  ];
  test.each(chunks)('has the chunk of route module %s', (chunk) => {
    expect(manifest.chunks[chunk]?.length).toBeGreaterThan(0);
  });
});

describe('the browser bundles', () => {
  /** Every script the build wrote, as one text. */
  const allJs = () =>
    readdirSync(path.join(out, 'client', 'assets'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.js'))
      .map((f) => readFileSync(path.join(out, 'client', 'assets', f), 'utf8'))
      .join('\n');

  test("carry zod's English messages but none of its other languages (scripts/build-config.ts)", () => {
    const js = allJs();
    expect(js).toContain('Invalid input: expected');
    expect(js).not.toContain('Eingabe: erwartet'); // zod/v4/locales/de.js (ASCII: the build escapes the rest)
    expect(js).not.toContain('recibido'); // es
  });
});
