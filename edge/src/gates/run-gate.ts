/** Runs one gate so that it fails closed: a gate that throws becomes a failed result naming the error. */
import { edgeViolation, type GateResult, type Vertex } from '@pentagate/protocol';
import type { Gate, GateContext } from './gate-context.js';

export function runGate(vertex: Vertex, gate: Gate, ctx: GateContext): GateResult {
  try {
    const r = gate(ctx);
    if (r.violations.length > 0 && r.passed) return { ...r, passed: false };
    if (r.passed || r.violations.length > 0) return r;
    return { ...r, violations: [`${vertex}.FAILED: the gate failed without naming a violation`] };
  } catch (err) {
    return {
      vertex,
      passed: false,
      violations: [edgeViolation(`${vertex}.GATE_ERROR`, (err as Error)?.message ?? String(err))],
      evidence: {},
    };
  }
}
