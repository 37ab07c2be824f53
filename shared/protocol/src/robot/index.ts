/** Robot wire schemas: intents, telemetry frames, verdict events, topic names and the robot profile. */
export * from './intent.js';
export * from './telemetry.js';
export * from './verdict.js';
export * from './topics.js';
export * from './profile.js';
export * from './schema-problems.js';
export * from './shape-checks.js';
export * from './edge-violations.js';
