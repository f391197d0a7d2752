/**
 * Values for test data that no other test of the run has, by construction rather than by a prefix picked by hand
 * in each file (docs/decisions/062-a-suite-in-15-minutes.md).
 */

/** Which process of the run this is: Jest's worker (1, 2, …), Playwright's, or else the process id. */
const processPart = (): number => {
  const worker = Number(process.env.JEST_WORKER_ID ?? process.env.TEST_PARALLEL_INDEX ?? Number.NaN);
  return (Number.isInteger(worker) ? worker : process.pid) % 100;
};

let phones = 0;

/**
 * A Bangladeshi mobile number no other test of this run has made: 0160 (a prefix no test writes by hand), two digits
 * of the process and a counter of five (100,000 a process, far more than a test file makes).
 */
export function uniquePhone(): string {
  if (++phones > 99_999) throw new Error('uniquePhone: more than 99,999 phone numbers in one process');
  return `0160${String(processPart()).padStart(2, '0')}${String(phones).padStart(5, '0')}`;
}
