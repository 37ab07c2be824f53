/**
 * `pentagate demo --manual-consent`: the person at the terminal or in the console is the operator. The
 * simulated operator signs nothing, so each move that needs consent waits in the cloud's approvals queue
 * until that person grants it or the edge's consent timeout vetoes it; the round is lengthened to cover that
 * wait and the move, so a grant given near the deadline still runs inside the round that asked for it.
 */
import type { LoadedScenario } from '../scenarios/load-scenario.js';

/** After the move: its verdict and the controller's last setpoints reach the trace. */
const SETTLE_MS = 500;

export function withTimeForConsent(loaded: LoadedScenario): LoadedScenario {
  const { scenario, profile } = loaded;
  const timeoutMs = profile.consent.timeoutMs;
  let durationMs = scenario.durationMs;
  for (const e of scenario.timeline) {
    if (!e.consent) continue;
    const asked = scenario.timeline.find((i) => i.intent?.id === e.consent?.intent);
    if (!asked?.intent) continue;
    durationMs = Math.max(durationMs, asked.at + timeoutMs + asked.intent.durationMs + SETTLE_MS);
  }
  return { ...loaded, scenario: { ...scenario, durationMs } };
}
