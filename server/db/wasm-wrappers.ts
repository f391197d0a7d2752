/**
 * V8 never tiers up its calls from WebAssembly into JavaScript in this process
 * (docs/decisions/084-no-wasm-wrapper-tier-up.md). Node 24's V8 compiles a faster wrapper for such a call after a
 * thousand calls and shares it between the process's threads; freeing a wrapper no thread uses any more can fail a
 * fatal check in V8's bookkeeping of code pages when threads with PGlite come and go, which killed a test process
 * twice in `.ci/run`. Without tier-up that code is never reached; PGlite's calls out stay on V8's generic wrapper,
 * which cost no measurable time.
 *
 * Imported for its effect by server/db/pglite.ts, the one module that creates PGlite instances, so it runs before any
 * database opens: in the database's thread (server/db/pglite-worker.ts), and in the app, the backup tool and the tests,
 * which load that module too. The flag is the process's: set in any thread, it holds for the instances every thread
 * creates after it.
 */
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--wasm-wrapper-tiering-budget=2147483647');
