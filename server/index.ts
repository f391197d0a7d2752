import { createServer } from 'node:http';
import { loadConfig, ConfigError, type Config } from './config.ts';
import { createApp, type App } from './app.ts';
import { createLogger, type Logger } from './log.ts';
import { DEMO_STAFF } from './db/seed.ts';
import { startupFailure, type StartStep } from './startup.ts';
import { clusterMetrics, firstWorker, isWorker, runPrimary, stopWithPrimary } from './cluster.ts';

/** A start-up failure is one line on stderr naming the cause, and a non-zero exit (2: configuration, 1: the rest). */
async function fail(err: unknown, step: StartStep, config: Config | undefined, app?: App): Promise<never> {
  console.error(startupFailure(err, step, { databaseUrl: config?.DATABASE_URL, port: config?.PORT, host: config?.HOST }));
  // The stack only when asked for (LOG_LEVEL=debug or trace).
  if (['debug', 'trace'].includes(config?.LOG_LEVEL ?? process.env.LOG_LEVEL ?? '')) console.error(err);
  const code = err instanceof ConfigError ? 2 : 1;
  setTimeout(() => process.exit(code), 5_000).unref();
  await app?.close().catch(() => undefined);
  process.exit(code);
}

/** What the operator should know at the start (once, however many workers). */
function warnings(config: Config, log: Logger): void {
  if (config.secretSource === 'generated') log.warn('SECRET_KEY is not set: using a generated secret kept in DATA_DIR (development only)');
  // docs/rules/messages.md#6-push-notifications: where the VAPID keys came from (never the private key itself).
  if (config.push?.source === 'generated')
    log.warn('VAPID_ keys are not set: push uses a generated key pair kept in DATA_DIR (development only)');
  else if (!config.push) log.info('VAPID_ keys are not set: no push notifications are sent');
  if (config.NOTIFY_TRANSPORT === 'log')
    log.warn('NOTIFY_TRANSPORT=log: one-time codes are written to this log and the outbox table (development only)');
}

async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    return fail(err, 'prepare', undefined);
  }
  const log = createLogger(config.LOG_LEVEL);
  const drainMs = config.SHUTDOWN_DRAIN_MS ?? (config.APP_ENV === 'production' ? 5_000 : 0);
  // Several workers (PostgreSQL, WEB_CONCURRENCY or one per core): this process only looks after them (server/cluster.ts).
  const worker = isWorker();
  if (config.workers > 1 && !worker) return runPrimary(config.workers, log, drainMs);
  if (worker) stopWithPrimary();
  // What follows is said once, by the first worker when there are several.
  const first = !worker || firstWorker();
  if (first) warnings(config, log);
  let app: App;
  try {
    app = await createApp(config, { log, ...(worker ? { mergedMetrics: clusterMetrics } : {}) });
  } catch (err) {
    return fail(err, 'prepare', config);
  }
  const server = createServer(app.app);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.PORT, config.HOST, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    return fail(err, 'listen', config, app);
  }
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : config.PORT;
  const url = `http://localhost:${port}`;
  log.info({ url, database: config.DATABASE_URL ? 'postgres' : 'pglite', mode: config.APP_ENV }, 'Bhagya is listening');
  // With several workers the primary says where once every worker listens.
  if (!worker) console.log(`\n  Bhagya is running at ${url}`);
  if (first && config.SEED_DEMO && !config.ADMIN_PHONE) console.log(`  Demo staff login: ${DEMO_STAFF.phone} / ${DEMO_STAFF.password}\n`);

  // A stop (docs/rules/operations.md#4-stopping): readiness fails at once while requests are still taken for the drain
  // period; then the server stops listening, the requests in flight finish, and the background jobs, the pool or the
  // embedded database close. Whatever is still running after 15 s more is cut short (exit 1).
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return; // a terminal's Ctrl-C may arrive twice (npm start passes it on too)
    stopping = true;
    log.info({ signal, drainMs }, 'stopping: not ready any more, draining');
    app.drain();
    setTimeout(() => {
      server.close(
        () =>
          void app.close().then(
            () => {
              log.info('stopped');
              process.exit(0);
            },
            (err: unknown) => {
              log.error({ err }, 'stopping failed');
              process.exit(1);
            },
          ),
      );
      server.closeIdleConnections();
    }, drainMs).unref();
    setTimeout(() => process.exit(1), drainMs + 15_000).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

void main();
