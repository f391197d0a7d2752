/**
 * One worker per core on PostgreSQL (server/cluster.ts, docs/decisions/072-one-worker-per-core.md): the real entry point
 * with WEB_CONCURRENCY=2 serves on one port from two workers, replaces a worker that dies and counts it, answers
 * /metrics with every worker's figures merged (their pools sharing DATABASE_POOL_MAX), and on SIGTERM stops both and
 * exits 0. PostgreSQL only.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { adminSql, databaseUrlFor } from '../helpers/database.ts';
import { startServerProcess, type ServerProcess } from '../helpers/process.ts';
import request from 'supertest';
import { until } from '../helpers/wait.ts';
import { to } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';

const pgUrl = process.env.TEST_DATABASE_URL;
const onPostgres = pgUrl ? describe : describe.skip;

/** The processes a process started (its workers), from /proc. */
const childrenOf = (pid: number): number[] =>
  readdirSync(`/proc/${pid}/task`).flatMap((task) =>
    readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
  );

/** One sample of the Prometheus text: `name{labels} value`, or the value of an unlabelled one. */
const sample = (text: string, line: RegExp): number | undefined => {
  const m = text.split('\n').find((l) => line.test(l));
  return m === undefined ? undefined : Number(m.slice(m.lastIndexOf(' ') + 1));
};

onPostgres('two workers on one port', () => {
  const name = `cluster_${randomBytes(5).toString('hex')}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bhagya-cluster-'));
  let app: ServerProcess;

  beforeAll(async () => {
    await adminSql(pgUrl as string, `CREATE DATABASE ${name}`);
    app = await startServerProcess({
      DATABASE_URL: databaseUrlFor(pgUrl as string, name),
      DATA_DIR: dataDir,
      SECRET_KEY: 's'.repeat(48),
      NOTIFY_TRANSPORT: 'log',
      WEB_CONCURRENCY: '2',
      DATABASE_POOL_MAX: '12',
    });
  }, 120_000);
  afterAll(async () => {
    if (app.child.exitCode === null) {
      app.child.kill('SIGKILL');
      await app.exited;
    }
    await adminSql(pgUrl as string, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** The app's /metrics (open outside production without METRICS_TOKEN), from whichever worker takes it. */
  const metrics = async () => (await request(app.url).get('/metrics').expect(200)).text;

  test('both serve; /metrics is their sum; a killed worker is replaced and counted; SIGTERM stops both, exit 0', async () => {
    const workers = childrenOf(app.child.pid as number);
    expect(workers).toHaveLength(2);

    const before =
      sample(await metrics(), /^bhagya_endpoint_answers_total\{endpoint="GET \/api\/v1\/published-lotteries\/",status="200"\}/) ?? 0;
    // The primary hands the connections to the workers in turn: six calls reach both.
    for (let i = 0; i < 6; i++) await to(app, api.publishedLotteries).set('Connection', 'close').expect(200);
    const text = await metrics();
    expect(sample(text, /^bhagya_endpoint_answers_total\{endpoint="GET \/api\/v1\/published-lotteries\/",status="200"\}/)).toBe(before + 6);
    expect(sample(text, /^bhagya_workers /)).toBe(2);
    expect(sample(text, /^bhagya_worker_restarts_total /)).toBe(0);
    // The instance's 12 connections shared by the two workers' pools (6 each): the pool's most is summed; the business
    // figures, the same on both, are not.
    expect(sample(text, /^bhagya_db_pool_connections\{state="max"\}/)).toBe(12);
    expect(sample(text, /^bhagya_figures_up /)).toBe(1);
    expect(sample(text, /^bhagya_claims_waiting /)).toBe(0);

    process.kill(workers[1] as number, 'SIGKILL');
    await until(async () => {
      const now = childrenOf(app.child.pid as number);
      return now.length === 2 && !now.includes(workers[1] as number);
    }, 30_000);
    await until(async () => sample(await metrics(), /^bhagya_workers /) === 2, 30_000);
    expect(sample(await metrics(), /^bhagya_worker_restarts_total /)).toBe(1);
    await to(app, api.publishedLotteries).expect(200);

    const last = childrenOf(app.child.pid as number);
    app.child.kill('SIGTERM');
    expect(await app.exited).toBe(0);
    for (const pid of last) expect(() => process.kill(pid, 0)).toThrow();
  }, 120_000);
});
