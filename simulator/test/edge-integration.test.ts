/**
 * How the simulator meets the real edge CLI: the `edge run` argument vector it builds parses against the edge's
 * own command definition, `sim cell` writes a cell whose printed `edge run` options parse too (and keeps an
 * existing cell), and `demo --connect` drives an edge started from such a cell over an external broker (the
 * machine's Mosquitto; required when CI=true) with a second account for the proximity sources, then exits
 * cleanly on SIGTERM.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commands as edgeCommands } from '@pentagate/edge/commands';
import { resolveCommandLine, runCli } from '@pentagate/protocol';
import t from 'tap';
import { edgeOptionsForCell } from '../src/cli/cell-command.js';
import { DEMO_SCENARIO } from '../src/cli/scenario-paths.js';
import { commands } from '../src/commands.js';
import { edgeRunArgs, PENTAGATE_BIN } from '../src/edge/edge-process.js';
import { loadRobotCredentials } from '../src/setup/robot-credentials.js';
import { requireEdgeCli, startEdgeChild } from './helpers/edge-cli.js';

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, commands, { out: (s) => (out += `${s}\n`), err: (s) => (err += `${s}\n`) });
  return { code, out, err };
}

function mosquittoUp(): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createConnection({ port: 1883, host: '127.0.0.1' });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

/** The demo scenario for a robot id no other test uses on the shared Mosquitto. */
async function scenarioFor(dir: string, robotId: string): Promise<string> {
  const text = (await readFile(DEMO_SCENARIO, 'utf8'))
    .replace(/^profile: .*$/m, `profile: ${join(import.meta.dirname, '../../edge/profiles/ur5e-arm.yaml')}`)
    .replace(/^profileOverrides: \{/m, `profileOverrides: { robotId: ${robotId}, `);
  const file = join(dir, 'demo.yaml');
  await writeFile(file, text);
  return file;
}

t.test('sim cell writes a cell whose edge run options parse against the real edge CLI', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'pentagate-cell-test-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const out = join(dir, 'cell');
  const first = await cli(['sim', 'cell', '--out', out, '--mqtt-port', '18830']);
  t.equal(first.code, 0, first.err);
  t.match(first.out, /^npx pentagate edge run /, 'the whole command line, ready to paste');
  const argv = first.out.trim().split(' ').slice(2);
  t.match(first.out, /--firmware \S+firmware-1\.4\.2\.dsse\.json/);
  t.match(first.out, /--calibration \S+calibration-lidar-front\.dsse\.json/);
  t.match(
    first.out,
    / --mqtt embedded:18830 --broker-users \S+\/broker\/users\.json --state-dir \S+\/edge-state$/m,
  );
  const resolved = resolveCommandLine(argv, edgeCommands);
  t.same(resolved.command.path, ['edge', 'run']);
  const users = JSON.parse(await readFile(join(out, 'broker', 'users.json'), 'utf8')) as {
    passwordHash?: string;
  }[];
  t.ok(users.length === 4 && users.every((u) => u.passwordHash?.startsWith('scrypt$')), 'hashes only');
  t.equal((await stat(join(out, 'broker', 'sim-ur5e-01.password'))).mode & 0o777, 0o600);
  const pw = join(out, 'broker', 'sim-ur5e-01.password');
  const half = await cli([
    'demo',
    ...['--connect', 'mqtt://127.0.0.1:1', '--cell', out, '--username', 'sim-ur5e-01', '--password-file', pw],
    ...['--sensor-username', 'sensor-ur5e-01'],
  ]);
  t.equal(half.code, 2, 'a sensor account without its password is refused');
  t.equal(
    half.err,
    'pentagate demo: --sensor-username and --sensor-password-file go together, got only --sensor-username\n',
  );
  const halfPlanner = await cli([
    'demo',
    ...[
      '--connect',
      'mqtt://127.0.0.1:1',
      '--cell',
      out,
      '--username',
      'robot-ur5e-01',
      '--password-file',
      pw,
    ],
    ...['--planner-password-file', pw],
  ]);
  t.equal(halfPlanner.code, 2, "a planner's password without its account is refused");
  t.equal(
    halfPlanner.err,
    'pentagate demo: --planner-username and --planner-password-file go together, got only --planner-password-file\n',
  );
  const badPort = await cli(['sim', 'cell', '--out', join(dir, 'p'), '--mqtt-port', '70000']);
  t.equal(badPort.code, 2);
  t.match(badPort.err, /--mqtt-port: expected a port 1\.\.65535, got "70000"/);
  const again = await cli(['sim', 'cell', '--out', out, '--mqtt-port', '18830']);
  t.equal(again.code, 0);
  t.match(again.err, /already holds a cell; keeping it/);
  t.equal(again.out, first.out, 'the kept cell prints the same options');
  const creds = await loadRobotCredentials(out);
  t.equal(creds.calibrationPaths.length, 2);
  const spawnArgs = edgeRunArgs({
    credentials: creds,
    mqttPort: 18999,
    brokerUsersPath: join(dir, 'users.json'),
  });
  t.same(resolveCommandLine(spawnArgs, edgeCommands).command.path, ['edge', 'run'], 'edgeRunArgs parses');
  const other = join(dir, 'other');
  await cli(['sim', 'cell', '--out', other]);
  await writeFile(join(other, 'profile.yaml.bak'), '');
  await rm(join(other, 'profile.yaml'));
  const refused = await cli(['sim', 'cell', '--out', other]);
  t.equal(refused.code, 2, 'a directory with other files is refused');
});

t.test('demo --connect drives an edge started from a sim cell over an external broker', async (t) => {
  if (!requireEdgeCli(t)) return;
  if (!(await mosquittoUp())) {
    if (process.env.CI) t.fail('Mosquitto is not listening on 127.0.0.1:1883 (required when CI=true)');
    else t.skip('Mosquitto is not listening on 127.0.0.1:1883; start it to run this test', () => {});
    return;
  }
  const dir = await mkdtemp(join(tmpdir(), 'pentagate-connect-test-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const robotId = `ur5e-connect-${process.pid}`;
  const scenario = await scenarioFor(dir, robotId);
  const cell = join(dir, 'cell');
  const made = await cli(['sim', 'cell', '--out', cell, '--scenario', scenario]);
  t.equal(made.code, 0, made.err);
  const { edge, exit: edgeExit } = await startEdgeChild(
    t,
    [
      'edge',
      'run',
      ...edgeOptionsForCell(await loadRobotCredentials(cell)),
      '--mqtt',
      'mqtt://127.0.0.1:1883',
      '--state-dir',
      join(dir, 'edge'),
    ],
    robotId,
  );
  await writeFile(join(dir, 'pw'), 'anonymous-broker\n');
  const demo = spawn(
    process.execPath,
    [
      PENTAGATE_BIN,
      'demo',
      '--connect',
      'mqtt://127.0.0.1:1883',
      '--cell',
      cell,
      '--scenario',
      scenario,
      '--username',
      `sim-${robotId}`,
      '--password-file',
      join(dir, 'pw'),
      // the second connection, for the proximity sources (this Mosquitto binds none to it)
      '--sensor-username',
      `sensor-${robotId}`,
      '--sensor-password-file',
      join(dir, 'pw'),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let signalled = false;
  let out = '';
  let err = '';
  demo.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const demoExit = new Promise<number | null>((r) => demo.on('exit', r));
  // SIGTERM once the visitor's STOP is printed: the demo must finish its round cleanly and exit 0.
  demo.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    if (!signalled && /STOPPED.*RISK\.HUMAN_IN_RADIUS/.test(out)) {
      signalled = true;
      demo.kill('SIGTERM');
    }
  });
  t.equal(await demoExit, 0, err);
  t.match(out, /SIGNED\s+pick\s+seq \d+/, 'a signed verdict from the external edge is printed');
  t.match(out, /STOPPED\s+\S+\s+seq \d+\s+RISK\.HUMAN_IN_RADIUS/, 'the STOP for the visitor is printed');
  t.match(out, /Pentagate demo: stopping\./);
  edge.kill('SIGTERM');
  t.equal(await edgeExit, 0, 'the edge shuts down cleanly too');
});
