/**
 * A scratch folder on the memory filesystem (/dev/shm) where the machine has one, else in the system's temporary
 * folder: for the test databases' files (tests/helpers/pglite-template.ts), which a sync at every commit would otherwise
 * send to a disk (docs/decisions/067-jest-in-a-fraction.md).
 */
import { accessSync, constants, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const SHM = '/dev/shm';

function scratchRoot(): string {
  try {
    accessSync(SHM, constants.W_OK);
    return SHM;
  } catch {
    return tmpdir();
  }
}

/** A new empty folder named `<prefix>XXXXXX` for the caller to remove. */
export function scratchDir(prefix: string): string {
  return mkdtempSync(path.join(scratchRoot(), prefix));
}
