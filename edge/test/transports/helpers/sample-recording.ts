/**
 * Makes the sample recording shipped in edge/samples/arm-cell: a real `edge run --record` (serial transport over a
 * socat pseudo-terminal, the test playing the controller) of a short arm session — healthy telemetry, one small
 * move that is signed, then a person at 0.3 m that stops the arm. Written with the profile (inline trust) and the
 * vendor-signed firmware manifest the replay needs; no private key is written.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { writeHmacKeyFile } from '@pentagate/crypto';
import type { MotorCommand } from '@pentagate/protocol';
import { startEdgeRun } from '../../../src/cli/edge-run.js';
import { edgeRunOptions } from '../../../src/cli/edge-run-command.js';
import { createEdgeLogger } from '../../../src/observability/logger.js';
import { armFixture } from '../../runtime/helpers/arm-fixture.js';
import { PtyPair } from './pty-pair.js';
import { Controller } from './serial-controller.js';

export interface SampleFiles {
  profilePath: string;
  firmwarePath: string;
  recordingPath: string;
}

const isCommand = (v: unknown): v is MotorCommand => typeof (v as MotorCommand).mac === 'string';
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Writes profile.json, fw.manifest.json and cell.mcap into `outDir`; `workDir` holds the throwaway state. */
export async function writeSampleRecording(outDir: string, workDir: string): Promise<SampleFiles> {
  const fixture = armFixture({ robotId: 'sample-arm', fastSourceMaxAgeMs: 2000 });
  const profilePath = join(outDir, 'profile.json');
  await writeFile(
    profilePath,
    `${JSON.stringify({ ...fixture.profile, description: 'sample arm cell (edge/samples)' }, null, 2)}\n`,
  );
  const firmwarePath = join(outDir, 'fw.manifest.json');
  await writeFile(firmwarePath, `${JSON.stringify(fixture.firmwareManifest, null, 2)}\n`);
  const hmacKey = join(workDir, 'cmd.jwk');
  await writeHmacKeyFile(hmacKey, fixture.hmacKey.key);
  const recordingPath = join(outDir, 'cell.mcap');
  const pty = new PtyPair(workDir);
  await pty.start();
  try {
    const options = await edgeRunOptions({
      options: {
        profile: profilePath,
        'hmac-key': hmacKey,
        firmware: [firmwarePath],
        transport: ['serial'],
        'serial-port': pty.edgePath,
        mqtt: 'embedded:1883',
        'state-dir': join(workDir, 'state'),
        record: recordingPath,
        'log-level': 'silent',
      },
      positionals: [],
    });
    const started = await startEdgeRun({
      ...options,
      logger: createEdgeLogger({ destination: new Writable({ write: (_c, _e, cb) => cb() }) }),
    });
    const mcu = await Controller.open(pty.controllerPath, 'ndjson');
    try {
      let seq = 1;
      for (; seq <= 3; seq++) {
        for (const f of fixture.passingFrames(seq, Date.now())) mcu.send(f);
        await pause(50);
      }
      mcu.send(fixture.smallMove('sample-move-1'));
      await mcu.next<MotorCommand>((v) => isCommand(v) && v.intentId === 'sample-move-1');
      for (; seq <= 6; seq++) {
        for (const f of fixture.passingFrames(seq, Date.now())) mcu.send(f);
        await pause(50);
      }
      mcu.send(fixture.proximityFrame(seq, Date.now(), 0.3));
      await mcu.next<MotorCommand>((v) => isCommand(v) && v.setpoints.kind === 'stop');
    } finally {
      await mcu.close();
      await started.stop('sample recorded');
    }
  } finally {
    await pty.stop();
  }
  return { profilePath, firmwarePath, recordingPath };
}
