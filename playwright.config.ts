/**
 * Browser journeys (tests/e2e) against the built server (`npm run build` first; `npm test` does it).
 * The config starts its own server: a free port, a fresh data folder (embedded PGlite), codes written to
 * the log (NOTIFY_TRANSPORT=log) and the server's stdout captured to a file that tests/e2e/helpers.ts reads.
 * Chromium is Debian's (/usr/bin/chromium, see scripts/ensure-chromium.sh): never `playwright install`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

const CI = process.env.CI === 'true' || process.env.CI === '1';

// The config is evaluated again in every worker: choose the port and folder once, in the runner, and hand
// them down through the environment (workers inherit it).
if (!process.env.E2E_PORT) {
  process.env.E2E_PORT = execFileSync(process.execPath, [
    '-e',
    "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})",
  ])
    .toString()
    .trim();
}
if (!process.env.E2E_DIR) {
  const created = mkdtempSync(path.join(tmpdir(), 'bhagya-e2e-'));
  process.env.E2E_DIR = created;
  // Removed when the runner exits, after it stopped the server (failed tests carry the log as an attachment);
  // E2E_KEEP=1 keeps the folder for a look at the data.
  if (!process.env.E2E_KEEP) process.on('exit', () => rmSync(created, { recursive: true, force: true }));
}

const port = Number(process.env.E2E_PORT);
const dir = process.env.E2E_DIR;
export const baseURL = `http://127.0.0.1:${port}`;
process.env.E2E_BASE_URL = baseURL;
process.env.E2E_SERVER_LOG ??= path.join(dir, 'server.log');

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results',
  fullyParallel: true,
  forbidOnly: CI,
  workers: 2,
  retries: CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  use: {
    baseURL,
    screenshot: 'only-on-failure',
    // A trace only when a journey runs again after failing (CI retries once; locally `--trace on`): recording one
    // for every journey, to keep it on failure, cost a quarter of the journeys' time (docs/decisions/068-suite-toward-15-minutes.md).
    trace: 'on-first-retry',
    // No service worker, except in the journeys about it (pwa, push: `test.use({ serviceWorkers: 'allow' })`): it
    // installs in every new browser context and fetches the app's files for its cache, work the other journeys do not
    // look at (docs/decisions/069-jest-workers-and-one-visit-per-page.md).
    serviceWorkers: 'block',
    locale: 'en-US',
    timezoneId: 'Asia/Dhaka',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
          ],
        },
      },
    },
  ],
  webServer: {
    // The journeys' data first (tests/e2e/prepare-data.ts: the demo data and the numbers journey's lottery), then the
    // server; `exec` so that stopping the shell stops the server; stdout and stderr both go to the log file.
    command:
      'npx --no-install tsx tests/e2e/prepare-data.ts > "$E2E_SERVER_LOG" 2>&1 && exec npx --no-install node dist/server/index.js >> "$E2E_SERVER_LOG" 2>&1',
    url: `${baseURL}/readyz`,
    timeout: 90_000,
    reuseExistingServer: false,
    gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
    env: {
      // As `npm start` runs it (scripts/start.ts): React's production build, the app's development mode (plain http).
      NODE_ENV: 'production',
      APP_ENV: 'development',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: path.join(dir, 'data'),
      DATABASE_URL: '',
      API_BASE_URL: '',
      PUBLIC_ORIGIN: '',
      NOTIFY_TRANSPORT: 'log',
      LOG_LEVEL: 'info',
      // Cheap password hashes: every journey logs in (docs/decisions/036-password-hash-cost-in-tests.md).
      PASSWORD_HASH_COST: '10',
      E2E_SERVER_LOG: process.env.E2E_SERVER_LOG,
    },
  },
});
