import { execFile } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

/** One run of the draw checker: its exit code, its stdout (also as lines) and its own stderr. */
export type VerifyRun = { code: number; out: string; lines: string[]; stderr: string };

/**
 * The independent draw checker (scripts/verify-draw.ts) run as anyone would run it, in one of the two ways its header
 * gives: plain Node (0.2 s of CPU), or `npx tsx` when `tsx` (1.5 s; tests/unit/verify-draw.test.ts runs it so once).
 * `args`: the server's address and a lottery's id, or `--file` and a proof's file.
 */
export function runVerifyDraw(args: string[], o: { tsx?: boolean } = {}): Promise<VerifyRun> {
  const [command, first] = o.tsx ? ['npx', ['tsx']] : [process.execPath, []];
  return new Promise((resolve) =>
    execFile(command, [...first, 'scripts/verify-draw.ts', ...args], { cwd: root, timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      // npx may warn about the machine's npm configuration on stderr: that is npm's, not the script's.
      const own = stderr
        .split('\n')
        .filter((line) => !line.startsWith('npm warn'))
        .join('\n');
      resolve({ code, out: stdout, lines: stdout.trim().split('\n'), stderr: own });
    }),
  );
}

/** The checker with plain Node on `args`. */
export const verifyDraw = (...args: string[]): Promise<VerifyRun> => runVerifyDraw(args);
