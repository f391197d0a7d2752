import { loadConfig, ConfigError } from './config.ts';
import { createApp } from './app.ts';
import { createLogger } from './log.ts';
import { DEMO_STAFF } from './db/seed.ts';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  const log = createLogger(config.LOG_LEVEL);
  if (config.secretSource === 'generated') log.warn('SECRET_KEY is not set: using a generated secret kept in DATA_DIR (development only)');
  if (config.NOTIFY_TRANSPORT === 'log')
    log.warn('NOTIFY_TRANSPORT=log: one-time codes are written to this log and the outbox table (development only)');
  const { app, close } = await createApp(config, { log });
  const server = app.listen(config.PORT, config.HOST, () => {
    const addr = server.address();
    const port = typeof addr === 'object' && addr ? addr.port : config.PORT;
    const url = `http://localhost:${port}`;
    log.info({ url, database: config.DATABASE_URL ? 'postgres' : 'pglite' }, 'Bhagya is listening');
    console.log(`\n  Bhagya is running at ${url}`);
    if (config.SEED_DEMO && !config.ADMIN_PHONE) console.log(`  Demo staff login: ${DEMO_STAFF.phone} / ${DEMO_STAFF.password}\n`);
  });
  const stop = () => {
    server.close(() => void close().then(() => process.exit(0)));
    setTimeout(() => process.exit(1), 10_000).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

void main();
