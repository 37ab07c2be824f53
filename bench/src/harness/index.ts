/**
 * The benchmark harness: measureSync / measureAsync over an HDR histogram, the BenchSuite shape,
 * targets, figures, CPU pinning, and the `npm run bench` runner.
 */
export * from './clock.js';
export * from './latency-stats.js';
export * from './latency-histogram.js';
export * from './latency-recorder.js';
export * from './measure.js';
export * from './suite.js';
export * from './cpu-pinning.js';
export * from './machine.js';
export * from './format-table.js';
export * from './bench-args.js';
export * from './suite-loader.js';
export * from './suite-context.js';
export * from './run-bench.js';
export { collectGarbage } from './gc.js';
export * from './section.js';
