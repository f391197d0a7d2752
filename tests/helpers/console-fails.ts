/**
 * Jest's setup after the environment, for every test file: a console.error or console.warn fails the test that made it
 * (or the file, when it came from outside a test), as a console.error in the page fails a browser journey
 * (tests/e2e/helpers.ts). The server logs through pino, never the console: what reaches it is a React warning, a
 * library's complaint or a test's own leftover, each a thing to fix rather than to scroll past.
 */
import { format } from 'node:util';

const said: string[] = [];
for (const level of ['error', 'warn'] as const) {
  const original = console[level].bind(console);
  console[level] = (...args: unknown[]) => {
    said.push(`console.${level}: ${format(...args)}`);
    original(...args);
  };
}

function failOnWhatWasSaid(where: string): void {
  if (!said.length) return;
  const lines = said.splice(0);
  throw new Error(`${where} wrote to the console (tests/helpers/console-fails.ts):\n${lines.join('\n')}`);
}

afterEach(() => failOnWhatWasSaid('this test'));
afterAll(() => failOnWhatWasSaid('this file, outside its tests,'));
