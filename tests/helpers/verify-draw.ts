import { execFile } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * The independent draw checker (scripts/verify-draw.ts) run as anyone would run it, with plain Node (one of the two ways
 * its header gives; tests/unit/verify-draw.test.ts runs the other, `npx tsx`, too): 0.2 s of CPU where `npx tsx` takes
 * 1.5 s. `args`: the server's address and a lottery's id, or `--file` and a proof's file. Its exit code and stdout.
 */
export function verifyDraw(...args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) =>
    execFile(process.execPath, ['scripts/verify-draw.ts', ...args], { cwd: root, timeout: 60_000 }, (error, stdout) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, out: stdout }),
    ),
  );
}
