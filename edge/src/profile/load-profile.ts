/**
 * Loads a robot profile from YAML (or JSON, which is YAML), reporting every problem with its path:
 * YAML syntax (with line and column), schema (`joints[2].torqueLimitNm: expected a positive number, got -3`)
 * and, beside them, the cross-field rules of every section the schema passed. A trust file named by `trust.path` is read and inlined, so the profile digest
 * (`cfgDigest` in every signed command) covers the keys the gates trusted.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import {
  cannotRead,
  KeepOutZoneSchema,
  type ProfileProblem,
  ProfileError,
  type RobotProfile,
  RobotProfileSchema,
  ZONE_SCHEMAS,
  conforms,
  describeValue,
  readJson,
  schemaProblems,
} from '@pentagate/protocol';
import { parseDocument } from 'yaml';
import { crossFieldProblems, crossFieldProblemsBeside } from './cross-checks.js';

/** Largest profile or trust file read, bytes. */
export const MAX_PROFILE_BYTES = 1024 * 1024;

export interface ProfileCheck {
  profile?: RobotProfile;
  problems: ProfileProblem[];
}

/** Refines a failed zone union into the problems of the shape it claims to be. */
function zoneProblems(value: unknown): ProfileProblem[] {
  const zones = (value as { keepOut?: { zones?: unknown } })?.keepOut?.zones;
  if (!Array.isArray(zones)) return [];
  const out: ProfileProblem[] = [];
  zones.forEach((z, i) => {
    if (conforms(KeepOutZoneSchema, z)) return;
    const shape = (z as { shape?: unknown })?.shape;
    const schema = typeof shape === 'string' ? ZONE_SCHEMAS[shape as keyof typeof ZONE_SCHEMAS] : undefined;
    if (!schema) {
      out.push({
        path: `keepOut.zones[${i}].shape`,
        message: `expected "box", "sphere" or "prism", got ${describeValue(shape)}`,
      });
    } else out.push(...schemaProblems(schema, z, `keepOut.zones[${i}]`));
  });
  return out;
}

/**
 * Checks an already-parsed profile value: schema problems, and beside them the cross-field rules of every
 * section the schema passed (crossFieldProblemsBeside), so one run reports both kinds.
 */
export function checkRobotProfileValue(value: unknown): ProfileCheck {
  const schema = schemaProblems(RobotProfileSchema, value).filter(
    (p) => !/^keepOut\.zones\[\d+\]$/.test(p.path),
  );
  const problems = [...schema, ...zoneProblems(value)];
  if (problems.length > 0) return { problems: [...problems, ...crossFieldProblemsBeside(value, problems)] };
  const profile = value as RobotProfile;
  const cross = crossFieldProblems(profile);
  return cross.length > 0 ? { problems: cross } : { profile, problems: [] };
}

function parseYaml(text: string): { value?: unknown; problems: ProfileProblem[] } {
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    return {
      problems: doc.errors.map((e) => ({
        path: '',
        message: `YAML ${e.code}${e.linePos ? ` at line ${e.linePos[0].line}, column ${e.linePos[0].col}` : ''}: ${e.message.split('\n')[0]}`,
      })),
    };
  }
  return { value: doc.toJS({ maxAliasCount: 100 }), problems: [] };
}

function readText(path: string, what: string): string {
  const bytes = readFileSync(path);
  if (bytes.length > MAX_PROFILE_BYTES) {
    throw new ProfileError(what, [
      { path: '', message: `expected at most ${MAX_PROFILE_BYTES} bytes, got ${bytes.length}` },
    ]);
  }
  return bytes.toString('utf8');
}

/** Checks profile text; `baseDir` resolves `trust.path`. Never throws for bad content; file errors throw. */
export function checkRobotProfileText(text: string, baseDir = process.cwd()): ProfileCheck {
  const parsed = parseYaml(text);
  if (parsed.problems.length > 0) return { problems: parsed.problems };
  const value = parsed.value as { trust?: { path?: unknown; document?: unknown } } | undefined;
  const trustPath = value?.trust?.path;
  if (typeof trustPath === 'string' && value?.trust && value.trust.document === undefined) {
    try {
      const document = readJson(readText(resolve(baseDir, trustPath), 'trust file'), { what: 'trust file' });
      value.trust = { document };
    } catch (err) {
      return {
        problems: [{ path: 'trust.path', message: cannotRead(trustPath, err) }],
      };
    }
  }
  return checkRobotProfileValue(value);
}

/**
 * Loads a robot profile: a string is a file path; `{ text, baseDir? }` is the profile text itself.
 * Throws ProfileError listing every problem.
 */
export function loadRobotProfile(input: string | { text: string; baseDir?: string }): RobotProfile {
  const what = typeof input === 'string' ? `robot profile ${input}` : 'robot profile';
  const check =
    typeof input === 'string'
      ? checkRobotProfileText(readText(input, what), dirname(resolve(input)))
      : checkRobotProfileText(input.text, input.baseDir);
  if (!check.profile) throw new ProfileError(what, check.problems);
  return check.profile;
}
