/**
 * `pentagate demo --manual-consent`: the person running the demo is the operator. The heavy lift waits in
 * the cloud's approvals queue (the simulated operator signs nothing) until the `consent grant` line the demo
 * prints is run in another terminal; then the edge signs the lift. Real processes: the demo (cloud, edge,
 * embedded broker, simulated robot) and the two operator commands.
 */
import { execFile, spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import t from 'tap';
import { withTimeForConsent } from '../../src/cli/manual-consent.js';
import { DEMO_SCENARIO } from '../../src/cli/scenario-paths.js';
import { PENTAGATE_BIN } from '../../src/edge/edge-process.js';
import { freePort } from '../../src/runner/robot-cell.js';
import { loadScenario } from '../../src/scenarios/load-scenario.js';
import { requireEdgeCli } from '../helpers/edge-cli.js';

// Several `pentagate` processes start on a shared 2-CPU machine: one cold start took 25 s under load.
t.setTimeout(500_000);

function pentagate(args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [PENTAGATE_BIN, ...args], { timeout: 120_000 }, (err, out, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out, err: stderr }),
    );
  });
}

t.test('a round lasts long enough for a person to grant within the edge consent timeout', async (t) => {
  const loaded = loadScenario(DEMO_SCENARIO);
  const lift = loaded.scenario.timeline.find((e) => e.intent?.id === 'lift');
  const lengthened = withTimeForConsent(loaded);
  t.equal(
    lengthened.scenario.durationMs,
    (lift?.at ?? 0) + loaded.profile.consent.timeoutMs + (lift?.intent?.durationMs ?? 0) + 500,
  );
  t.equal(loaded.scenario.durationMs, 6000, 'the loaded scenario itself is left as it was');
});

/**
 * The demo scenario with a consent timeout of 5 min instead of 30 s: the two operator commands below are
 * cold CLI starts, which took up to 25 s each on this project's loaded 2-CPU machine; a person is quicker.
 */
async function patientDemoScenario(dir: string): Promise<string> {
  const text = await readFile(DEMO_SCENARIO, 'utf8');
  const file = join(dir, 'demo-cell-patient.yaml');
  await writeFile(
    file,
    text
      .replace(
        /^profile: .*$/m,
        `profile: ${join(dirname(DEMO_SCENARIO), '../../edge/profiles/ur5e-arm.yaml')}`,
      )
      .replace(
        /^profileOverrides: \{ risk: \{ ssm: \{ enabled: false \} \} \}$/m,
        'profileOverrides: { risk: { ssm: { enabled: false } }, consent: { timeoutMs: 300000 } }',
      ),
  );
  t.equal(loadScenario(file).profile.consent.timeoutMs, 300_000, 'the patient scenario loads');
  return file;
}

t.test('with --manual-consent the lift waits for the printed consent grant line, then runs', async (t) => {
  if (!requireEdgeCli(t)) return;
  const scenario = await patientDemoScenario(t.testdir());
  const child = spawn(
    process.execPath,
    [
      PENTAGATE_BIN,
      'demo',
      '--manual-consent',
      '--scenario',
      scenario,
      '--mqtt-port',
      String(await freePort()),
      '--duration',
      '500',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
  let done = false;
  void exited.then(() => (done = true));
  const waitFor = async (re: RegExp): Promise<RegExpExecArray> => {
    for (;;) {
      const m = re.exec(out);
      if (m) return m;
      if (done) throw new Error(`the demo exited before ${re}:\n${out}\n${err}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  t.teardown(() => {
    if (!done && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  });

  t.match(
    (await waitFor(/console: .*sign in with the operator key pgk_\S+/))[0],
    /\/console/,
    'the banner names the key to sign in to the console with',
  );
  // An agent builder's first calls go to the same cloud with the printed line: an agent key and a policy.
  const agents = (
    await waitFor(/^ {2}agents: {5}PENTAGATE_URL=(\S+) PENTAGATE_API_KEY=(\S+) node (\S+)$/m)
  ).slice(1);
  const agent = await new Promise<{ code: number; out: string; err: string }>((settle) => {
    const [url = '', key = '', script = ''] = agents;
    execFile(
      process.execPath,
      [resolve(script)],
      { env: { ...process.env, PENTAGATE_URL: url, PENTAGATE_API_KEY: key }, timeout: 120_000 },
      (err, out, stderr) => settle({ code: err ? 1 : 0, out, err: stderr }),
    );
  });
  t.equal(agent.code, 0, `the printed agent line runs: ${agent.err}`);
  t.match(agent.out, /→ ALLOW/, 'a call the example policy allows is allowed');
  t.match(agent.out, /→ DENY/);
  t.match(agent.out, /→ REQUIRE_HUMAN/, "and one waits for the operator in the same cloud's queue");

  const line = (await waitFor(/^ {4}npx pentagate (consent grant .*)$/m))[1] ?? '';
  t.match(out, /waits for you for \d+ s \(then the edge vetoes it\)/, 'the demo says the move waits for you');
  // the simulated operator used to relay within a second of printing the line: the move must still wait
  await new Promise((r) => setTimeout(r, 2000));
  const option = (name: string) => new RegExp(`--${name} (\\S+)`).exec(line)?.[1] ?? '';
  const pending = await pentagate([
    'consent',
    'pending',
    '--cloud',
    option('cloud'),
    '--cloud-key-file',
    option('cloud-key-file'),
  ]);
  t.equal(pending.code, 0, pending.err);
  t.match(pending.out, /ur5e-01 {2}intent lift {2}heavy-lift/, 'the lift is still in the approvals queue');
  t.notMatch(out, /SIGNED +lift/, 'and has not run');

  const grant = await pentagate(line.split(' '));
  t.equal(grant.code, 0, `the printed line grants it: ${grant.err}`);
  await waitFor(/SIGNED +lift/);
  t.pass('the edge signed the lift once the person granted it');

  if (child.pid !== undefined) process.kill(-child.pid, 'SIGINT');
  t.equal(await exited, 0, err);
  t.match(out, /Pentagate demo: stopping/);
});
