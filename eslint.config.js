// ESLint (flat config), run by `npm run lint` and by `npm test` (scripts/test.sh, step `lint`).
// typescript-eslint's `recommended` set is the syntactic one on purpose: the type-checked sets run the whole
// TypeScript program for every file and are too slow for our 2-core machines; `tsc` (step `typecheck`) covers types.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Import boundaries. The code that goes to the browser (client/), the pages rendered on both sides (views/) and the
// code shared by server and browser (shared/) never import server code; shared/ imports nothing from the pages either.
// Matched on the import path: any relative path that goes through a `server` (or `views`, `client`) directory.
const serverImport = {
  regex: '^\\.{1,2}/(.*/)?server(/|$)',
  message:
    'server/ code must not be imported from views/, client/ or shared/ (it would end up in the browser bundle); move what both need to shared/.',
};
const pagesImport = {
  regex: '^\\.{1,2}/(.*/)?(views|client)(/|$)',
  message: 'shared/ must not import from views/ or client/; move what both need to shared/.',
};
// Between server features (server/<feature>/): one reaches another only through its service or another public module
// (accounts/service.ts accountById, lotteries/service.ts lockLotteryForSale, audit/record.ts recordAudit, …), never
// through its queries.ts, whose SQL is the owning feature's to change.
const otherFeatureQueries = {
  regex: '^\\.\\./[^/]+/([^/]*-)?queries\\.ts$',
  message:
    'a feature reaches another only through its service (server/<feature>/service.ts), never its queries.ts; audit records are written with server/audit/record.ts.',
};
// Refusals are data (docs/decisions/064-refusals-as-data.md): a feature's code says no with refuse(name) from
// shared/api/refusals.ts, with no HTTP status and no text; only server/http, server/bff and server/ssr speak HTTP, and
// the caller's translator never reaches a service (what a service words in a player's own language, a message, it
// words with the app's texts: `Texts` from server/i18n.ts).
const httpAnswer = {
  regex: '^\\.\\./http/errors\\.ts$',
  importNames: ['ApiError'],
  message:
    'a feature refuses with refuse(name) (shared/api/refusals.ts), never with an HTTP answer: docs/decisions/064-refusals-as-data.md.',
};
const callersTranslator = {
  regex: '^i18next$',
  importNames: ['TFunction'],
  message:
    "a feature does not word refusals: run() does, in the caller's language (docs/decisions/064-refusals-as-data.md); a message to a player is worded with `Texts` (server/i18n.ts).",
};
const callersLanguage = {
  selector: 'MemberExpression[object.name=/^(caller|ctx)$/][property.name=/^(t|lng)$/]',
  message:
    "the caller's translator and language stay in server/http: a feature refuses with refuse(name) (docs/decisions/064-refusals-as-data.md).",
};
/** The same, taken apart: `const { t } = caller`, `({ caller: { lng } }) => …`. */
const callersLanguageTaken = {
  selector:
    'VariableDeclarator[init.name=/^(caller|ctx)$/] > ObjectPattern > Property[key.name=/^(t|lng)$/], Property[key.name=/^(caller|ctx)$/] > ObjectPattern > Property[key.name=/^(t|lng)$/]',
  message: callersLanguage.message,
};
const SPEAKS_HTTP = ['server/http/**', 'server/bff/**', 'server/ssr/**'];
/** The rules for one side of a boundary: static imports and re-exports, and `import('…')` with a literal path. */
const boundary = (files, patterns, syntax = [], ignores = []) => ({
  files,
  ignores,
  rules: {
    'no-restricted-imports': ['error', { patterns }],
    'no-restricted-syntax': [
      'error',
      ...patterns.map(({ regex, message }) => ({
        selector: `ImportExpression > Literal.source[value=/${regex.replaceAll('/', '\\x2F')}/]`,
        message,
      })),
      ...syntax,
    ],
  },
});

export default defineConfig([
  globalIgnores(['dist/', 'data/', 'node_modules/', 'test-results/', 'playwright-report/', 'coverage/', '.tmp/']),

  js.configs.recommended,
  tseslint.configs.recommended,

  {
    languageOptions: { globals: { ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          args: 'after-used',
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      // `declare global { namespace Express { … } }` is how Express's Request is augmented; runtime namespaces stay banned.
      '@typescript-eslint/no-namespace': ['error', { allowDeclarations: true }],
    },
  },

  // React: the rules of hooks wherever components live.
  {
    files: ['views/**/*.{ts,tsx}', 'client/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
    languageOptions: { globals: { ...globals.browser } },
  },

  // Import boundaries (see above).
  boundary(['views/**', 'client/**'], [serverImport]),
  boundary(['shared/**'], [serverImport, pagesImport]),
  boundary(['server/*/**'], [otherFeatureQueries, httpAnswer, callersTranslator], [callersLanguage, callersLanguageTaken], SPEAKS_HTTP),
  // A feature's routes may word a success (a notice's text) in the caller's language; its refusals are still data.
  boundary(['server/*/routes.ts'], [otherFeatureQueries, httpAnswer, callersTranslator], [], SPEAKS_HTTP),
  boundary(SPEAKS_HTTP, [otherFeatureQueries]),

  // Tests: jest's globals.
  {
    files: ['tests/**'],
    languageOptions: { globals: { ...globals.jest } },
  },
]);
