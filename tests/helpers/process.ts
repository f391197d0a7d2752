/**
 * The real entry point (server/index.ts) in a process of its own, as an operator starts it: for the tests about what
 * only a process shows — a stop, a crash, several instances on one database.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

export type ServerProcess = {
  child: ChildProcess;
  port: number;
  url: string;
  /** The exit code, or null when a signal ended it. */
  exited: Promise<number | null>;
};

/**
 * Starts the server with `env` over a quiet, test-sized base (no demo seed, cheap password hashes, a port of its own)
 * and resolves once it listens. A process still running after `killAfterMs` is killed, so that a failed test leaves
 * none behind.
 */
export function startServerProcess(env: Record<string, string>, killAfterMs = 120_000): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      LOG_LEVEL: 'error',
      HOST: '127.0.0.1',
      PORT: '0',
      SEED_DEMO: 'false',
      PASSWORD_HASH_COST: '10',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const killer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  void exited.then(() => clearTimeout(killer));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /running at http:\/\/localhost:(\d+)/.exec(out);
      if (m) resolve({ child, port: Number(m[1]), url: `http://127.0.0.1:${m[1]}`, exited });
    });
    void exited.then((code) => reject(new Error(`the server exited (${code}) before listening: ${out}`)));
  });
}
