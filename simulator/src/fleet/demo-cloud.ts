/**
 * The cloud part of `pentagate demo`: registers the simulated robot, serves the cloud as a child process,
 * optionally crashes it for a while mid-run (`--cloud-outage`), and at the end ships what the edge's
 * shutdown left, says how many of the edge's records the cloud holds, and exports the audit kit for
 * `pentagate verify kit`.
 */
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { dirname, join, relative, resolve } from 'node:path';
import type { CliIo } from '@pentagate/protocol';
import { PENTAGATE_BIN } from '../edge/edge-process.js';
import type { RobotCredentials } from '../setup/robot-credentials.js';
import type { CloudOperator } from './cloud-consent.js';
import { CloudProcess } from './cloud-process.js';
import { type FleetRegistration, registerDemoRobot } from './fleet-setup.js';
import { runPentagateJson } from './pentagate-cli.js';

/**
 * The demo cloud decides agents' calls by the documented example policy (cloud/policies/example.yaml), so an
 * agent builder's first calls with the printed agent key are decided, not all refused for want of a policy.
 */
export const EXAMPLE_POLICY = resolve(dirname(PENTAGATE_BIN), '../cloud/policies/example.yaml');
/** The runnable GovClient agent of shared/client/README.md, which the banner's agent line runs. */
const EXAMPLE_AGENT = resolve(dirname(PENTAGATE_BIN), '../shared/client/examples/agent.mjs');

/** A path as the person who ran the demo types it: relative to where they are. */
function fromHere(path: string): string {
  return relative(process.cwd(), path) || path;
}

export interface DemoCloudOptions {
  stateDir: string;
  port: number;
  robotId: string;
  credentials: RobotCredentials;
}

export interface CloudOutage {
  /** Seconds after the edge is up when the cloud is killed. */
  atS: number;
  /** Seconds it stays down. */
  forS: number;
}

export interface DemoCloudSummary {
  edgeRecords: number;
  cloudAcknowledged: number;
  kitDir: string;
  /** The cloud's keys (GET /api/v1/keys) saved beside the kit: the trust anchor `verify kit --trust` wants. */
  trustFile: string;
  treeSize: number;
}

/** A port nothing listens on now (the cloud takes it a moment later). */
function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * The banner: how to reach the cloud the demo runs. Each command is pasted into a shell as printed, so a URL
 * with a query string is quoted (zsh would take `?` for a glob).
 */
export function demoWelcome(url: string, r: FleetRegistration): string {
  return [
    `Pentagate cloud on ${url} (tenant ${r.tenantId}); robot ${r.robotId} ships its audit records there.`,
    `  live view:  curl -N -H "Authorization: Bearer ${r.operatorKey}" "${url}/api/v1/fleet/live?robot=${r.robotId}"`,
    `  registry:   curl -H "Authorization: Bearer ${r.operatorKey}" ${url}/api/v1/fleet/robots`,
    `  approvals:  npx pentagate consent pending --cloud ${url} --cloud-key-file ${r.operatorKeyPath}`,
    `  console:    ${url}/console in a browser; sign in with the operator key ${r.operatorKey} (Approvals, Live, Audit)`,
    `  agents:     PENTAGATE_URL=${url} PENTAGATE_API_KEY=${r.agentKey} node ${fromHere(EXAMPLE_AGENT)}`,
    `              (a key of scope agent for the finance department, also in ${r.agentKeyPath}, under the policy ${fromHere(EXAMPLE_POLICY)};`,
    '              the curl lines of cloud/README.md "Run it" work with it too)',
  ].join('\n');
}

export class DemoCloud {
  readonly process: CloudProcess;
  readonly registration: FleetRegistration;
  readonly #io: CliIo;
  readonly #operatorKeyPath: string;
  #outageStart: NodeJS.Timeout | undefined;
  #outage: Promise<void> = Promise.resolve();
  #closed = false;
  #endOutageEarly: (() => void) | undefined;

  private constructor(
    process: CloudProcess,
    registration: FleetRegistration,
    io: CliIo,
    operatorKeyPath: string,
  ) {
    this.process = process;
    this.registration = registration;
    this.#io = io;
    this.#operatorKeyPath = operatorKeyPath;
  }

  /**
   * Registers the robot and fixes the port; `serve()` starts the cloud. The edge may start at the same time:
   * its uplink retries until the cloud listens.
   */
  static async prepare(options: DemoCloudOptions, io: CliIo): Promise<DemoCloud> {
    const cloudDir = join(options.stateDir, 'cloud');
    const [registration, port] = await Promise.all([
      registerDemoRobot(cloudDir, options.robotId, options.credentials),
      options.port === 0 ? freeLoopbackPort() : options.port,
    ]);
    return new DemoCloud(
      // its own process group: Ctrl-C stops the demo, which then stops the cloud after exporting the kit
      new CloudProcess({ stateDir: cloudDir, port, ownProcessGroup: true, policyFile: EXAMPLE_POLICY }),
      registration,
      io,
      options.credentials.operatorKeyPath,
    );
  }

  async serve(): Promise<void> {
    await this.process.restart();
  }

  get url(): string {
    return this.process.url;
  }

  /** The simulated operator working through this cloud's approvals queue. */
  get operator(): CloudOperator {
    const r = this.registration;
    return {
      url: this.process.url,
      apiKey: r.operatorKey,
      apiKeyPath: r.operatorKeyPath,
      operatorId: r.operatorId,
      operatorKeyPath: this.#operatorKeyPath,
    };
  }

  /** What `edge run` needs to ship its outbox here. */
  get edgeLink(): { url: string; keyPath: string } {
    return { url: this.process.url, keyPath: this.registration.edgeKeyPath };
  }

  printWelcome(): void {
    this.#io.out(demoWelcome(this.url, this.registration));
  }

  /** Kills the cloud `atS` seconds from now and starts it again `forS` seconds later. */
  scheduleOutage(outage: CloudOutage): void {
    this.#outageStart = setTimeout(() => {
      this.#outage = (async () => {
        this.#io.out(`— cloud: killed (SIGKILL) for ${outage.forS} s; the edge keeps gating and recording`);
        await this.process.kill();
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, outage.forS * 1000);
          this.#endOutageEarly = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        if (this.#closed) return;
        await this.process.restart();
        this.#io.out(`— cloud: back on ${this.url}; the edge catches up from the cloud's acknowledgement`);
      })().catch((err: Error) => {
        // finish() tries again; the demo must not die of an unhandled rejection meanwhile
        this.#io.err(`— cloud: could not restart: ${err.message}`);
      });
    }, outage.atS * 1000);
  }

  /**
   * After the edge stopped: brings the cloud back if an outage is still on, ships the records the edge's
   * shutdown left (`pentagate edge ship`), stops the cloud and exports the audit kit to `kitDir`.
   */
  async finish(edgeStateDir: string, kitDir: string): Promise<DemoCloudSummary> {
    clearTimeout(this.#outageStart);
    // an outage under way ends as planned (the cloud comes back), then the last records ship
    await this.#outage.catch(() => {});
    await this.process.restart();
    const shipped = await runPentagateJson<{ records: number; acknowledged: number }>([
      'edge',
      'ship',
      '--state-dir',
      edgeStateDir,
      '--robot',
      this.registration.robotId,
      '--cloud',
      this.url,
      '--cloud-key-file',
      this.registration.edgeKeyPath,
    ]);
    const trustFile = `${kitDir}-trust.json`;
    await this.#saveTrust(trustFile);
    await this.process.stop();
    const kit = await runPentagateJson<{ treeSize: number }>([
      'cloud',
      'audit',
      'export',
      '--out',
      kitDir,
      '--state-dir',
      this.process.stateDir,
    ]);
    return {
      edgeRecords: shipped.records,
      cloudAcknowledged: shipped.acknowledged,
      kitDir,
      trustFile,
      treeSize: kit.treeSize,
    };
  }

  /**
   * Saves the cloud's keys as a trust file, read from the running cloud as an auditor reads them, not from the
   * kit: a kit's own trust.json only shows the kit is self-consistent (`verify kit` needs `--trust`).
   */
  async #saveTrust(path: string): Promise<void> {
    const res = await fetch(`${this.url}/api/v1/keys`, {
      headers: { authorization: `Bearer ${this.registration.operatorKey}` },
    });
    if (!res.ok) throw new Error(`GET /api/v1/keys: ${res.status} ${await res.text()}`);
    await writeFile(path, await res.text(), { mode: 0o644 });
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#outageStart);
    this.#endOutageEarly?.();
    await this.#outage.catch(() => {});
    await this.process.stop();
  }
}
