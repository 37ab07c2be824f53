/**
 * Runs a group of bundled scenarios hardware-in-the-loop, one after the other, against real
 * `pentagate edge run` processes (each with its own embedded broker on a free port, keys and state
 * directory; scenarios that would start the edge with the same configuration share one, see
 * src/runner/cell-pool.ts), the simulated robot and controller over MQTT, and — for the scenarios in SERIAL_TOO — again with the
 * controller behind a socat serial line. A failed scenario reports its failed expectations, verdicts and
 * the edge's log tail.
 */
import type { Test } from 'tap';
import { CellPool } from '../../src/runner/cell-pool.js';
import { loadScenario } from '../../src/scenarios/load-scenario.js';
import { requireEdgeCli } from './edge-cli.js';
import { SERIAL_TOO, scenarioPath } from './hil-groups.js';

/** Expectations that are wall-clock bounds (the only ones a scenario may retry once). */
const TIMING_ONLY = /^vetoWithinMs /;

export async function runHilGroup(t: Test, names: readonly string[]): Promise<void> {
  if (!requireEdgeCli(t)) return;
  const pool = new CellPool();
  t.teardown(() => pool.close());
  for (const name of names) {
    const loaded = loadScenario(scenarioPath(name));
    const transports: ('mqtt' | 'serial')[] = SERIAL_TOO.has(name) ? ['mqtt', 'serial'] : ['mqtt'];
    for (const transport of transports) {
      let result = await pool.run(loaded, { transport });
      let failed = result.expectations.filter((e) => !e.ok);
      if (failed.length > 0 && failed.every((e) => TIMING_ONLY.test(e.name))) {
        // A latency bound measured on the wall clock of a loaded machine: run it once more and say so. A
        // slow edge fails twice; an edge that never stops reports no latency at all and fails both times.
        t.comment(
          `${name} over ${transport}: ${failed.map((f) => `${f.name} (${f.detail})`).join('; ')} with the ` +
            `simulator stalled up to ${result.maxStepGapMs} ms; running it once more`,
        );
        result = await pool.run(loaded, { transport });
        failed = result.expectations.filter((e) => !e.ok);
      }
      t.ok(
        result.passed,
        `${name} holds against the real edge over ${transport}`,
        failed.length > 0
          ? {
              failed,
              verdicts: result.trace.verdicts.map((v) => `${v.verdict.outcome} ${v.verdict.intentId ?? '-'}`),
              maxStepGapMs: result.maxStepGapMs,
              edgeLog: result.edgeLogTail,
            }
          : {},
      );
      if (transport === 'serial') {
        const viaSerial = result.trace.controller.filter((e) => e.kind !== 'halted' && e.via === 'serial');
        t.ok(viaSerial.length > 0, `${name}: commands reached the controller down the serial line`);
      }
    }
  }
}
