/** Entry point of `npm run bench -- [suite…] [--json] [--quick]`; see harness/run-bench.ts. */
import { runBench } from './harness/run-bench.js';

process.exitCode = await runBench(process.argv.slice(2));
