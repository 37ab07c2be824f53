/**
 * Runs scenarios one after the other, sharing one real edge among the scenarios that would start it with the
 * same configuration: the same profile as the edge gets it (overrides and timing floor applied), the same
 * signed firmware and the same calibration certificates. Starting an edge costs 2–4 s; 13 of the 22
 * bundled scenarios share one configuration.
 *
 * What carries over between scenarios on one edge is what carries over on a real robot whose edge keeps
 * running: its epoch and command seq (each scenario's fresh controller adopts the higher epoch), the last
 * telemetry seq per source (each scenario's robot continues above the previous one's), a protective STOP when
 * the previous robot went quiet. Each scenario starts with the lead-in, so the edge has fresh telemetry
 * from the new robot before the scenario clock starts. A cell whose edge died is started again.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalize } from '@pentagate/protocol';
import { simulatedFirmware } from '../models/firmware-report.js';
import type { LoadedScenario } from '../scenarios/load-scenario.js';
import { createRobotCredentials, type RobotCredentials } from '../setup/robot-credentials.js';
import { type RobotCell, type RobotCellFactory, spawnedEdgeCell } from './robot-cell.js';
import {
  DEFAULT_FIRMWARE_VERSION,
  type RunOptions,
  runScenario,
  type ScenarioResult,
} from './scenario-runner.js';
import { DEFAULT_TIMING_FLOOR_MS, withTimingFloor } from './timing-floor.js';

interface PooledCell {
  stateDir: string;
  credentials: RobotCredentials;
  cell: RobotCell;
  nextTelemetrySeq: number;
}

export type PoolRunOptions = Omit<RunOptions, 'prepared' | 'firstTelemetrySeq' | 'cell'>;

export class CellPool {
  readonly #factory: RobotCellFactory;
  readonly #cells = new Map<string, PooledCell>();
  /** Edges started so far (for the run log). */
  started = 0;

  constructor(factory: RobotCellFactory = spawnedEdgeCell()) {
    this.#factory = factory;
  }

  /** The configuration an edge is started with, as one string. */
  static key(loaded: LoadedScenario, timingFloorMs: number): string {
    const { scenario, profile } = loaded;
    return canonicalize({
      profile: withTimingFloor(profile, timingFloorMs),
      signedFirmware: scenario.firmware?.signed ?? DEFAULT_FIRMWARE_VERSION,
      calibration: scenario.calibration ?? 'valid',
    });
  }

  async run(loaded: LoadedScenario, options: PoolRunOptions = {}): Promise<ScenarioResult> {
    const floorMs = options.timingFloorMs ?? DEFAULT_TIMING_FLOOR_MS;
    const key = CellPool.key(loaded, floorMs);
    let pooled = this.#cells.get(key);
    if (pooled && !pooled.cell.alive()) {
      await this.#close(key, pooled);
      pooled = undefined;
    }
    pooled ??= await this.#start(key, loaded, floorMs);
    const result = await runScenario(loaded, {
      ...options,
      prepared: { credentials: pooled.credentials, cell: pooled.cell },
      firstTelemetrySeq: pooled.nextTelemetrySeq,
    });
    pooled.nextTelemetrySeq = result.lastTelemetrySeq + 1;
    return result;
  }

  async #start(key: string, loaded: LoadedScenario, floorMs: number): Promise<PooledCell> {
    const { scenario, profile } = loaded;
    const stateDir = await mkdtemp(join(tmpdir(), `pentagate-sim-${profile.robotId}-`));
    try {
      const edgeProfile = withTimingFloor(profile, floorMs);
      const credentials = await createRobotCredentials({
        stateDir,
        profile: edgeProfile,
        signedFirmware: simulatedFirmware(scenario.firmware?.signed ?? DEFAULT_FIRMWARE_VERSION),
        calibration: scenario.calibration ?? 'valid',
      });
      const cell = await this.#factory(credentials, edgeProfile);
      const pooled = { stateDir, credentials, cell, nextTelemetrySeq: 1 };
      this.#cells.set(key, pooled);
      this.started++;
      return pooled;
    } catch (err) {
      await rm(stateDir, { recursive: true, force: true });
      throw err;
    }
  }

  async #close(key: string, pooled: PooledCell): Promise<void> {
    this.#cells.delete(key);
    await pooled.cell.close().catch(() => {});
    await rm(pooled.stateDir, { recursive: true, force: true });
  }

  /** Stops every edge and removes their state directories. */
  async close(): Promise<void> {
    for (const [key, pooled] of [...this.#cells]) await this.#close(key, pooled);
  }
}
