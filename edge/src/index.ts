/**
 * @pentagate/edge: the edge node that sits next to a robot's actuators (DESIGN.md §3–4).
 * Exports the robot-profile loader, the EdgeGate (trapAndSign, the five physical gates, signed motor commands,
 * protective stops) and its building blocks. The transports, broker, node and CLI live beside them.
 */
export * from './profile/load-profile.js';
export * from './profile/cross-checks.js';
export * from './profile/compiled-profile.js';
export * from './kinematics/forward-kinematics.js';
export * from './kinematics/joint-path-sweep.js';
export * from './kinematics/base-path-sweep.js';
export * from './geometry/keep-out-zone.js';
export * from './telemetry/telemetry-store.js';
export * from './gates/gate-context.js';
export * from './gates/motion-plan.js';
export * from './gates/motion-energy.js';
export * from './gates/separation-distance.js';
export * from './gates/provenance-registry.js';
export * from './gates/invariant.js';
export * from './gates/economy.js';
export * from './gates/risk.js';
export * from './gates/provenance.js';
export * from './gates/consent.js';
export * from './gates/run-gate.js';
export * from './gate/sequence-store.js';
export * from './gate/trap-result.js';
export * from './gate/verdicts.js';
export * from './gate/edge-gate.js';
