/** The line `pentagate demo` prints at the end of each round of its scenario. */
import type { ScenarioResult } from '../runner/scenario-runner.js';

/**
 * A round's closing line. A move the edge vetoed because nobody granted its consent in time (what happens with
 * --manual-consent when the person at the terminal lets it wait) is the gate working, not a fault: it is said
 * so, instead of as the failed expectations that assumed the simulated operator's grant.
 */
export function roundOutcome(round: number, result: Pick<ScenarioResult, 'expectations' | 'trace'>): string {
  const failed = result.expectations.filter((e) => !e.ok);
  if (failed.length === 0) return `— round ${round}: all ${result.expectations.length} expectations held`;
  const listed = failed.map((f) => `${f.name} (${f.detail})`).join('; ');
  const notGranted = new Set(
    result.trace.verdicts
      .filter((v) => v.verdict.outcome === 'consent-expired')
      .map((v) => v.verdict.intentId),
  );
  const aboutNotGranted = (name: string) => name.split(' ').some((word) => notGranted.has(word));
  if (notGranted.size > 0 && failed.every((f) => aboutNotGranted(f.name))) {
    return (
      `— round ${round}: no consent was granted in time for ${[...notGranted].join(', ')}, so the edge vetoed it ` +
      `and the robot did not make that move; the expectation(s) that assumed a grant: ${listed}`
    );
  }
  return `— round ${round}: ${failed.length} expectation(s) failed: ${listed}`;
}
