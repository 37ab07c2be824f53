/**
 * The digital pentagon: `evaluateAction` for any governed action (every route, through the kernel), `evaluateToolCall` on a flat call
 * (the kernel's nine ActionTypes), the fingerprints the metabolic ledger stores, and the injection screen.
 */
export * from './types.js';
export * from './evaluate-action.js';
export * from './evaluate-tool-call.js';
export type { PentagonCall } from './pentagon-call.js';
export { callFingerprints, type CallFingerprints, fingerprintScope } from './fingerprint.js';
export { screenTexts, INJECTION_RULES, type InjectionScreen } from './tiers/injection/index.js';
export { ZK_INFERENCE_NOTE } from './tiers/zk-inference.js';
