/**
 * Profile problems (used by `loadRobotProfile` in @pentagate/edge): each names the path of the offending value in the profile's own notation
 * (`joints[2].torqueLimitNm`) and says what was expected and what came, so an integrator can fix every
 * problem in one pass instead of one per run.
 */
import { PentagateError, describeValue } from '../errors.js';
import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { type ValueError, ValueErrorType } from '@sinclair/typebox/errors';

export interface ProfileProblem {
  /** Dotted path with array indexes (`keepOut.zones[3].radiusM`); empty for the document itself. */
  path: string;
  message: string;
}

/** A robot profile that cannot be used. `problems` lists every problem found, not only the first. */
export class ProfileError extends PentagateError {
  readonly problems: ProfileProblem[];

  constructor(what: string, problems: ProfileProblem[]) {
    const shown = problems.slice(0, 10).map(formatProblem);
    const more = problems.length > 10 ? `; and ${problems.length - 10} more` : '';
    super('PROFILE_INVALID', `${what}: ${shown.join('; ')}${more}`, { problems });
    this.problems = problems;
  }
}

export function formatProblem(p: ProfileProblem): string {
  return p.path ? `${p.path}: ${p.message}` : p.message;
}

/** `/joints/2/torqueLimitNm` → `joints[2].torqueLimitNm`, under `prefix`. */
export function pointerToPath(pointer: string, prefix = ''): string {
  let out = prefix;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (/^[0-9]+$/.test(key)) out += `[${key}]`;
    else out += out ? `.${key}` : key;
  }
  return out;
}

function valueAt(root: unknown, pointer: string): unknown {
  let cur = root;
  for (const raw of pointer.split('/').slice(1)) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[raw.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return cur;
}

function expectation(e: ValueError): string {
  const s = e.schema as Record<string, unknown>;
  switch (e.type) {
    case ValueErrorType.NumberExclusiveMinimum:
      return s.exclusiveMinimum === 0
        ? 'expected a positive number'
        : `expected a number > ${s.exclusiveMinimum}`;
    case ValueErrorType.NumberMinimum:
    case ValueErrorType.IntegerMinimum:
      return `expected a number >= ${s.minimum}`;
    case ValueErrorType.NumberMaximum:
    case ValueErrorType.IntegerMaximum:
      return `expected a number <= ${s.maximum}`;
    case ValueErrorType.ObjectRequiredProperty:
      return 'required, but missing';
    case ValueErrorType.ObjectAdditionalProperties:
      return 'unknown field (check the spelling)';
    case ValueErrorType.Number:
      return 'expected a finite number';
    case ValueErrorType.StringPattern:
      return `expected text matching ${s.pattern}`;
    default:
      return e.message.replace(/^Expected/, 'expected');
  }
}

/** Every schema problem of `value`, with paths under `prefix`; union members are not descended into. */
export function schemaProblems(schema: TSchema, value: unknown, prefix = ''): ProfileProblem[] {
  const checker = TypeCompiler.Compile(schema);
  if (checker.Check(value)) return [];
  const problems: ProfileProblem[] = [];
  const seen = new Set<string>();
  const missing = new Set<string>();
  for (const e of checker.Errors(value)) {
    if (e.type === ValueErrorType.ObjectRequiredProperty) missing.add(e.path);
  }
  for (const e of checker.Errors(value)) {
    // TypeBox also reports a missing field's type ("expected object, got nothing"): name it once, as missing
    if (missing.has(e.path) && e.type !== ValueErrorType.ObjectRequiredProperty) continue;
    const path = pointerToPath(e.path, prefix);
    const message =
      e.type === ValueErrorType.ObjectRequiredProperty || e.type === ValueErrorType.ObjectAdditionalProperties
        ? expectation(e)
        : `${expectation(e)}, got ${describeValue(valueAt(value, e.path))}`;
    const key = `${path}|${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push({ path, message });
  }
  return problems;
}
