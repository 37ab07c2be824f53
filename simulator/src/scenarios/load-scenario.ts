/**
 * Reads a scenario file: YAML syntax errors with line and column, then every schema problem with its path,
 * then the cross-field rules (each timeline event does exactly one thing; consent names an intent of the
 * timeline), all reported together. The robot profile it names is loaded and validated the same way.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import {
  EDGE_VIOLATION_CODES,
  edgeViolationCode,
  type ProfileProblem,
  ProfileError,
  type RobotProfile,
  RobotProfileSchema,
  formatProblem,
  schemaProblems,
} from '@pentagate/protocol';
import { parseDocument } from 'yaml';
import { SimulatorError } from '../errors.js';
import { type Scenario, ScenarioSchema } from './scenario-schema.js';

export interface LoadedScenario {
  scenario: Scenario;
  file: string;
  profile: RobotProfile;
}

const MAX_FILE_BYTES = 1024 * 1024;
const ACTIONS = [
  'intent',
  'sensorFault',
  'batteryDrain',
  'inject',
  'redeliver',
  'consent',
  'firmware',
  'effortOffsetNm',
] as const;

function readYaml(file: string, what: string): unknown {
  let text: string;
  try {
    const bytes = readFileSync(file);
    if (bytes.length > MAX_FILE_BYTES) {
      throw new Error(`expected at most ${MAX_FILE_BYTES} bytes, got ${bytes.length}`);
    }
    text = bytes.toString('utf8');
  } catch (err) {
    throw new SimulatorError('SCENARIO_UNREADABLE', `${what} ${file}: ${(err as Error).message}`);
  }
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    const where = e.linePos ? ` at line ${e.linePos[0].line}, column ${e.linePos[0].col}` : '';
    throw new SimulatorError(
      'SCENARIO_INVALID',
      `${what} ${file}: YAML ${e.code}${where}: ${e.message.split('\n')[0]}`,
    );
  }
  return doc.toJS({ maxAliasCount: 100 });
}

function crossProblems(s: Scenario): ProfileProblem[] {
  const problems: ProfileProblem[] = [];
  const intents = new Set<string>();
  s.timeline.forEach((e, i) => {
    const actions = ACTIONS.filter((a) => e[a] !== undefined);
    if (actions.length !== 1) {
      problems.push({
        path: `timeline[${i}]`,
        message: `expected exactly one of ${ACTIONS.join(', ')}, got ${actions.length === 0 ? 'none' : actions.join(' and ')}`,
      });
    }
    if (e.at > s.durationMs) {
      problems.push({
        path: `timeline[${i}].at`,
        message: `expected at most durationMs ${s.durationMs}, got ${e.at}`,
      });
    }
    if (e.intent) {
      if (intents.has(e.intent.id))
        problems.push({
          path: `timeline[${i}].intent.id`,
          message: `intent id ${e.intent.id} is used twice`,
        });
      intents.add(e.intent.id);
    }
    for (const [action, named] of [
      ['consent', e.consent?.intent],
      ['redeliver', e.redeliver?.intent],
    ] as const) {
      if (named === undefined || intents.has(named)) continue;
      problems.push({
        path: `timeline[${i}].${action}.intent`,
        message: `expected the id of an intent earlier in the timeline, got ${JSON.stringify(named)}`,
      });
    }
  });
  (s.expect.violations ?? []).forEach((code, i) => {
    if (edgeViolationCode(code) !== code) {
      const family = code.split('.')[0] ?? '';
      const near = Object.keys(EDGE_VIOLATION_CODES).filter((c) => c.startsWith(`${family}.`));
      problems.push({
        path: `expect.violations[${i}]`,
        message: `expected a violation code of the edge's registry, got ${JSON.stringify(code)}${near.length ? ` (${family} codes: ${near.join(', ')})` : ''}`,
      });
    }
  });
  return problems;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Deep merge for profile overrides: objects merge, everything else (arrays included) replaces. */
export function mergeOverrides(base: unknown, overrides: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(overrides)) return overrides;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(overrides)) out[k] = k in base ? mergeOverrides(base[k], v) : v;
  return out;
}

/** Loads and validates a scenario and its profile; throws SimulatorError listing every problem. */
export function loadScenario(file: string): LoadedScenario {
  const path = resolve(file);
  const value = readYaml(path, 'scenario');
  const problems = schemaProblems(ScenarioSchema, value);
  if (problems.length === 0) problems.push(...crossProblems(value as Scenario));
  if (problems.length > 0) {
    throw new SimulatorError(
      'SCENARIO_INVALID',
      `scenario ${file}: ${problems.slice(0, 10).map(formatProblem).join('; ')}`,
      { problems },
    );
  }
  const scenario = value as Scenario;
  const profileFile = resolve(dirname(path), scenario.profile);
  const rawProfile = readYaml(profileFile, 'profile');
  const merged = mergeOverrides(rawProfile, scenario.profileOverrides ?? {});
  const profileProblems = schemaProblems(RobotProfileSchema, merged);
  if (profileProblems.length > 0) {
    const err = new ProfileError(`profile ${profileFile} (with the scenario's overrides)`, profileProblems);
    throw new SimulatorError('SCENARIO_INVALID', `scenario ${file}: ${err.message}`, {
      problems: profileProblems,
    });
  }
  return { scenario, file: path, profile: merged as RobotProfile };
}
