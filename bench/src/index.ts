/** @pentagate/bench: the benchmark harness other packages' suites build on. */
export * from './harness/index.js';
