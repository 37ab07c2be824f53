/**
 * The five gates of trapAndSign (ARCHITECTURE.md §4). RISK runs first because its speed cap feeds ECONOMY (a
 * slower motion draws its energy over a longer time); the results are reported in pentagon order.
 */
import type { GateResult } from '@pentagate/protocol';
import { consentGate } from '../gates/consent.js';
import { economyGate } from '../gates/economy.js';
import type { GateContext } from '../gates/gate-context.js';
import { invariantGate } from '../gates/invariant.js';
import { provenanceGate } from '../gates/provenance.js';
import { riskGate } from '../gates/risk.js';
import { runGate } from '../gates/run-gate.js';

export function runFiveGates(ctx: GateContext): GateResult[] {
  const risk = runGate('RISK', riskGate, ctx);
  return [
    runGate('INVARIANT', invariantGate, ctx),
    runGate('ECONOMY', economyGate, ctx),
    risk,
    runGate('PROVENANCE', provenanceGate, ctx),
    runGate('CONSENT', consentGate, ctx),
  ];
}
