/**
 * The digital pentagon: `evaluateToolCall` for AgentGate, `evaluateAction` for any governed action
 * (the kernel's nine ActionTypes), the fingerprints the metabolic ledger stores, and the injection screen.
 */
export * from './types.js';
export * from './evaluate-action.js';
export * from './evaluate-tool-call.js';
export { callFingerprints, type CallFingerprints } from './fingerprint.js';
export { screenTexts, INJECTION_RULES, type InjectionScreen } from './tiers/injection/index.js';
export { ZK_INFERENCE_NOTE } from './tiers/zk-inference.js';
