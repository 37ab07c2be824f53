/**
 * Runs one `pentagate …` command as a child process and returns its output: the simulator drives the cloud
 * and the edge through their command lines, never by importing them (DESIGN.md §1).
 */
import { execFile } from 'node:child_process';
import { SimulatorError } from '../errors.js';
import { PENTAGATE_BIN } from '../edge/edge-process.js';

export function runPentagate(args: string[], timeoutMs = 60_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [PENTAGATE_BIN, ...args],
      { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err) {
          reject(
            new SimulatorError(
              'CLOUD_FAILED',
              `pentagate ${args.slice(0, 3).join(' ')} failed: ${stderr.trim().split('\n').slice(-3).join(' | ') || err.message}`,
            ),
          );
        } else resolve(stdout);
      },
    );
  });
}

/** Runs a command with --json and parses its one-line answer. */
export async function runPentagateJson<T>(args: string[], timeoutMs?: number): Promise<T> {
  const out = await runPentagate([...args, '--json'], timeoutMs);
  return JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as T;
}
