/**
 * The demo loops a scenario against one edge with a new simulated robot per round, so each source's seqs
 * must continue from the last round within the edge's gap rule (last < seq ≤ last + SEQ_MAX_GAP, 1000 in
 * edge/src/telemetry/source-sequence.ts). After a long round (35 s: `demo --manual-consent` waits for the
 * operator) a common start above the fastest source's seq made the battery and firmware jump by thousands:
 * the edge then vetoed the next round's first moves with STALE_DATA while they re-synchronised.
 */
import t from 'tap';
import { MotorController } from '../src/controller/motor-controller.js';
import { simulatedFirmware } from '../src/models/firmware-report.js';
import { SimulatedRobot } from '../src/robot/simulated-robot.js';
import { DEMO_SCENARIO } from '../src/cli/scenario-paths.js';
import { loadScenario } from '../src/scenarios/load-scenario.js';

const EDGE_SEQ_MAX_GAP = 1000;
const STEP_MS = 10;

function robot(firstSeqs: ReadonlyMap<string, number> | undefined) {
  const { profile } = loadScenario(DEMO_SCENARIO);
  const controller = new MotorController({
    robotId: profile.robotId,
    keys: new Map(),
    jointNames: profile.joints.map((j) => j.name),
    watchdogMs: 1500,
    clock: () => 0,
  });
  return new SimulatedRobot({
    profile,
    controller,
    firmware: simulatedFirmware('1.4.2'),
    people: [],
    ...(firstSeqs ? { firstSeqs } : {}),
  });
}

/** Steps the robot for `ms` of simulated time; the seqs of each source's frames in order. */
function run(r: SimulatedRobot, ms: number): Map<string, number[]> {
  const seqs = new Map<string, number[]>();
  for (let tMs = 0; tMs < ms; tMs += STEP_MS) {
    for (const f of r.step(tMs, 1_700_000_000_000 + tMs, STEP_MS).frames) {
      seqs.set(f.source, [...(seqs.get(f.source) ?? []), f.seq]);
    }
  }
  return seqs;
}

t.test('after a 35 s round every source continues its own count within the edge gap rule', async (t) => {
  const first = robot(undefined);
  const round1 = run(first, 35_000);
  t.ok(round1.size >= 4, `sources: ${[...round1.keys()].join(', ')}`);
  const last = first.lastSeqs;
  const next = robot(new Map([...last].map(([source, seq]) => [source, seq + 1])));
  const round2 = run(next, 3000);
  for (const [source, seqs] of round1) {
    const before = seqs.at(-1) ?? 0;
    t.equal(last.get(source), before, `${source}: lastSeqs is its last frame's seq`);
    const after = round2.get(source)?.[0];
    t.ok(
      after !== undefined && after > before && after <= before + EDGE_SEQ_MAX_GAP,
      `${source}: ${before} → ${after}`,
    );
  }
});
