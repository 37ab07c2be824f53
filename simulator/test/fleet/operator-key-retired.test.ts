/**
 * A retired operator key releases no move (outside review: after `pentagate cloud operator retire`, a token
 * signed with the retired key still released a waiting heavy lift on the edge for up to 10 s, until the edge
 * read the operator keys again). Real processes and sockets: the cloud (`pentagate cloud serve`), the edge
 * (`pentagate edge run --cloud …`, its embedded broker), whose profile leaves the simulated operator's key out
 * so the edge trusts it only as the cloud enrolled it, and the simulated robot. With the key enrolled, the
 * operator's token on the robot's consent topic releases the lift; then, while the same lift waits again, an
 * admin retires the key with the CLI (a process of its own, writing the cloud's store while it serves), and
 * the operator's next token on the consent topic is refused and the lift never runs.
 */
import { join } from 'node:path';
import type { CliIo, VerdictEvent } from '@pentagate/protocol';
import t from 'tap';
import { SCENARIO_DIR } from '../../src/cli/scenario-paths.js';
import { DEMO_OPERATOR_ID } from '../../src/fleet/fleet-setup.js';
import { runPentagateJson } from '../../src/fleet/pentagate-cli.js';
import { runScenario } from '../../src/runner/scenario-runner.js';
import { DEFAULT_TIMING_FLOOR_MS, withTimingFloor } from '../../src/runner/timing-floor.js';
import { loadScenario } from '../../src/scenarios/load-scenario.js';
import { cloudLinkedCell, withConsentWait } from './fleet-helpers.js';

// Three `pentagate` processes for set-up, the cloud and the edge, and one more for the retirement.
t.setTimeout(400_000);

/** Long enough for the retirement (a `pentagate` process, seconds on a loaded machine) while the lift waits. */
const CONSENT_WAIT_MS = 15_000;

t.test('after `pentagate cloud operator retire` the retired key releases no waiting move', async (t) => {
  const lift = withConsentWait(loadScenario(join(SCENARIO_DIR, 'consent-granted.yaml')), CONSENT_WAIT_MS);
  // as in consent-relay.test.ts: this is about the consent path, not telemetry timing on a loaded machine
  const profile = withTimingFloor(lift.profile, 2 * DEFAULT_TIMING_FLOOR_MS);
  const printed: string[] = [];
  const io: CliIo = { out: (s) => printed.push(s), err: (s) => printed.push(s) };
  const { credentials, cloud, cell } = await cloudLinkedCell(t, profile, 'operator-key-retired', io, {
    operatorKeyFrom: 'cloud',
  });
  const outcomes = (verdicts: { verdict: VerdictEvent }[]) => verdicts.map((v) => v.verdict.outcome);

  // With no relay hook the runner publishes the operator's token on the consent topic.
  const enrolled = await runScenario(lift, { prepared: { credentials, cell } });
  if (!enrolled.passed) t.comment(JSON.stringify(enrolled.trace.events), cell.log().slice(-4000));
  t.ok(
    outcomes(enrolled.trace.verdicts).includes('signed'),
    'with the key enrolled, its token on the consent topic releases the lift',
  );

  let retired: { kid?: string } | undefined;
  const afterRetirement = await runScenario(lift, {
    prepared: { credentials, cell },
    // the same edge: each telemetry source goes on counting where it stopped (as the demo's rounds do)
    firstTelemetrySeq: enrolled.lastTelemetrySeq + 1,
    firstTelemetrySeqs: new Map([...enrolled.lastTelemetrySeqs].map(([source, seq]) => [source, seq + 1])),
    // The runner's cloud hook, called once the lift waits and the token is signed: the admin retires the key
    // first; 'cloud-unreachable' then has the runner publish the token on the consent topic, as an operator
    // on site does with `pentagate consent grant`.
    relayConsent: async () => {
      retired = await runPentagateJson<{ kid: string }>([
        ...['cloud', 'operator', 'retire', '--tenant', cloud.registration.tenantId],
        ...['--operator', DEMO_OPERATOR_ID, '--state-dir', join(credentials.stateDir, 'cloud')],
      ]);
      return 'cloud-unreachable';
    },
  });
  const events = afterRetirement.trace.events.map((e) => e.detail);
  t.ok(retired?.kid, 'the operator key was retired while the lift waited');
  t.ok(
    events.some((d) => /published on the consent topic/.test(d)),
    'and the token it signed was then published on the consent topic',
  );
  const verdicts = afterRetirement.trace.verdicts.map((v) => v.verdict);
  t.notOk(outcomes(afterRetirement.trace.verdicts).includes('signed'), 'the lift never runs');
  const refused = verdicts.some((v) => v.violations.some((x) => /^CONSENT\.INVALID: .*not trusted/.test(x)));
  if (!refused) t.comment(verdicts.flatMap((v) => v.violations).join('\n'), cell.log().slice(-4000));
  t.ok(refused, 'the edge refused the token: its key is no longer trusted');
  t.ok(
    outcomes(afterRetirement.trace.verdicts).includes('awaiting-consent'),
    'while the lift waited for it (the token had a move to release)',
  );
});
