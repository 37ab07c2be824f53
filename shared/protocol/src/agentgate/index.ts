/**
 * AgentGate wire schemas (ARCHITECTURE.md §5): registration, the tool call, the governance verdict with its
 * three tiers, self-correction and the violation codes. Owned by the cloud's pentagon.
 */
export * from './domains.js';
export * from './registration.js';
export * from './tool-call.js';
export * from './verdict-tiers.js';
export * from './verdict.js';
export * from './self-correct.js';
export * from './violation-codes.js';
