/**
 * The consent relay end to end over real processes and sockets: the cloud (`pentagate cloud serve`, a child
 * process, with the robot registered and the operator's own key enrolled through the CLI), the edge
 * (`pentagate edge run --cloud …`, a child process with its embedded broker) and the simulated robot. A
 * heavy lift the edge parks appears in the cloud's approvals queue; the operator's token, signed with the
 * operator's key and handed to the cloud, reaches the edge over the long poll the edge opened, and the
 * simulated robot performs the lift. A grant after the edge's wait ended is refused by the cloud and the lift
 * never runs; the same token twice is refused; and the cloud's audit log holds the request and the grant.
 */
import { join } from 'node:path';
import type { CliIo } from '@pentagate/protocol';
import t from 'tap';
import { SCENARIO_DIR } from '../../src/cli/scenario-paths.js';
import { cloudConsentRelay } from '../../src/fleet/cloud-consent.js';
import { runScenario } from '../../src/runner/scenario-runner.js';
import { DEFAULT_TIMING_FLOOR_MS, withTimingFloor } from '../../src/runner/timing-floor.js';
import { type LoadedScenario, loadScenario } from '../../src/scenarios/load-scenario.js';
import { auditEventsOfType, cloudLinkedCell, withConsentWait } from './fleet-helpers.js';

// Three `pentagate` processes for set-up, the cloud and the edge: cold starts on a loaded 2-core machine.
t.setTimeout(400_000);

/**
 * The bundled consent scenarios with a 2.5 s consent wait instead of 0.7 s: the relay adds two HTTP hops and
 * a long poll on a busy machine, and this test is about the path, not the edge's timer (the HIL consent
 * tests time that).
 */
const CONSENT_WAIT_MS = 2500;
const withLongerWait = (loaded: LoadedScenario, lateAtMs?: number) =>
  withConsentWait(loaded, CONSENT_WAIT_MS, lateAtMs);

t.test('an operator-signed consent travels cloud → edge over the edge-opened link', async (t) => {
  const granted = withLongerWait(loadScenario(join(SCENARIO_DIR, 'consent-granted.yaml')));
  const late = withLongerWait(
    loadScenario(join(SCENARIO_DIR, 'consent-late.yaml')),
    300 + CONSENT_WAIT_MS + 600,
  );
  // Twice the usual floor: this test is about the consent path, and with three processes, a long poll and
  // the rest of the suite on two cores, telemetry reached the edge 454 ms old once (the edge then, rightly,
  // stopped the lift for stale data). Stale-data refusal itself is tested by the HIL scenarios.
  const profile = withTimingFloor(granted.profile, 2 * DEFAULT_TIMING_FLOOR_MS);
  const printed: string[] = [];
  const io: CliIo = { out: (s) => printed.push(s), err: (s) => printed.push(s) };
  const { credentials, cloud, cell } = await cloudLinkedCell(t, profile, 'consent-relay', io);
  const relayConsent = cloudConsentRelay(cloud.operator, io);

  const ok = await runScenario(granted, { prepared: { credentials, cell }, relayConsent });
  if (!ok.passed) t.comment(JSON.stringify(ok.trace.events), cell.log().slice(-4000));
  t.ok(
    ok.passed,
    ok.expectations
      .filter((e) => !e.ok)
      .map((e) => `${e.name}: ${e.detail}`)
      .join('\n'),
  );
  t.match(
    printed.join('\n'),
    /ur5e-01 waits for an operator: intent lift \(heavy-lift\), move class heavy-lift is safety-critical \(peak [\d.]+ N·m, high-torque threshold [\d.]+ N·m\)\./,
    'why it waits: the move class, not the torque',
  );
  t.match(printed.join('\n'), /signed it with their own key; the cloud relayed it/);
  t.notOk(
    ok.trace.events.some((e) => /consent topic|refused by the cloud/.test(e.detail)),
    'the token went through the cloud, not the consent topic',
  );

  const tooLate = await runScenario(late, {
    prepared: { credentials, cell },
    relayConsent,
    // the same edge: the robot's telemetry seqs go on rising
    firstTelemetrySeq: ok.lastTelemetrySeq + 1,
  });
  const outcomes = tooLate.trace.verdicts.map((v) => v.verdict.outcome);
  t.equal(outcomes.filter((o) => o === 'signed').length, 0, 'a grant after the wait never signs the lift');
  t.equal(outcomes.filter((o) => o === 'consent-expired').length, 1, 'the edge timed the wait out');
  t.ok(
    tooLate.trace.events.some((e) => /refused by the cloud/.test(e.detail)),
    'the late grant found no open request in the cloud (it closed at the edge deadline)',
  );
  t.notOk(
    tooLate.trace.events.some((e) => /consent topic/.test(e.detail)),
    'and nothing went round the cloud',
  );

  // The cloud's audit log: request and grant, by the operator, bound to the intent digest.
  const requests = await auditEventsOfType(cloud, 'consent.request');
  const grants = await auditEventsOfType(cloud, 'consent.grant');
  t.equal(requests.length, 2, 'both parked lifts (the same intent, parked twice) were posted, once each');
  t.equal(grants.length, 1, 'one grant was relayed');
  t.equal(grants[0]?.actor, 'operator-sim', 'by the operator whose key signed it');
  t.equal(grants[0]?.subjectDigest, requests[0]?.subjectDigest, 'for the first lift');

  // The real edge signs under the profile and command key the robot was registered with: its shipped
  // commands name them, and the cloud raises no unregistered-profile / unregistered-command-key alarm.
  type Shipped = {
    data?: { record?: { verdict?: { outcome: string; cfgDigest?: string; commandKid?: string } } };
  };
  const signedShipped = async () =>
    ((await auditEventsOfType(cloud, 'edge.verdict')) as Shipped[])
      .map((e) => e.data?.record?.verdict)
      .filter((v) => v?.outcome === 'signed');
  const deadline = Date.now() + 30_000;
  while ((await signedShipped()).length === 0 && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 500));
  const shipped = await signedShipped();
  t.ok(shipped.length > 0, 'signed commands were shipped');
  t.ok(
    shipped.every((v) => v?.cfgDigest !== undefined && v.commandKid === credentials.hmacKey.kid),
    'each names its profile digest and the registered command key',
  );
  const metrics = await (await fetch(`${cloud.url}/metrics`)).text();
  t.notMatch(metrics, /pentagate_fleet_chain_alarms_total\{kind="unregistered-/, 'no unregistered alarm');
});
