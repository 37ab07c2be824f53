/**
 * Schema validation with errors that name the path, what was expected and what came
 * (`motor command: /seq: expected integer, got "7"`). Compiled validators are cached per schema.
 */
import type { Static, TSchema } from '@sinclair/typebox';
import { type TypeCheck, TypeCompiler } from '@sinclair/typebox/compiler';
import { type ValueError, ValueErrorType } from '@sinclair/typebox/errors';
import { InvalidInputError, describeValue } from './errors.js';
import { characterBounds, characterCount, withCharacterLengths } from './schemas/character-length.js';

export interface ValidationIssue {
  /** JSON Pointer (RFC 6901) to the offending value. */
  path: string;
  message: string;
}

export class ValidationError extends InvalidInputError {
  readonly issues: ValidationIssue[];

  constructor(what: string, issues: ValidationIssue[]) {
    const shown = issues.slice(0, 5).map((i) => `${i.path || '/'}: ${i.message}`);
    const more = issues.length > 5 ? `; and ${issues.length - 5} more` : '';
    super(`${what}: ${shown.join('; ')}${more}`, { issues });
    this.issues = issues;
  }
}

const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>();

function checkerFor<T extends TSchema>(schema: T): TypeCheck<T> {
  let c = compiled.get(schema);
  if (!c) {
    // bounds in characters, as the served schema means them (schemas/character-length.ts)
    c = TypeCompiler.Compile(withCharacterLengths(schema));
    compiled.set(schema, c);
  }
  return c as TypeCheck<T>;
}

function valueAt(root: unknown, pointer: string): unknown {
  let cur = root;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

/**
 * A union error ("expected union value") says nothing useful on its own. Each variant's own errors are
 * nested in it; the one the sender most likely meant is reported instead: in a discriminated union (setpoints,
 * intents, telemetry frames) the variant whose `kind` matched — a joint trajectory with every torque a string
 * has more problems than a twist it is not — and otherwise the variant with the fewest problems.
 */
function closestVariantErrors(error: ValueError): ValueError[] | undefined {
  const kindPath = `${error.path}/kind`;
  const kindMatched = (variant: ValueError[]) => !variant.some((e) => e.path === kindPath);
  let best: ValueError[] | undefined;
  for (const iterator of error.errors) {
    const variant = [...iterator];
    if (variant.length === 0) continue;
    const closer =
      !best ||
      (kindMatched(variant) && !kindMatched(best)) ||
      (kindMatched(variant) === kindMatched(best) && variant.length < best.length);
    if (closer) best = variant;
  }
  return best;
}

/**
 * A union of constants (an enum such as the agent domains) has no closest variant: every one is equally
 * far. The error lists the allowed values instead, so the sender sees what to send.
 */
function allowedConstants(error: ValueError): string | undefined {
  const variants = (error.schema as { anyOf?: { const?: unknown }[] }).anyOf;
  if (!variants || variants.length === 0 || !variants.every((v) => 'const' in v)) return undefined;
  return `expected one of ${variants.map((v) => JSON.stringify(v.const)).join(', ')}`;
}

function* flatten(errors: Iterable<ValueError>, depth = 0): Generator<ValueError> {
  for (const e of errors) {
    const allowed = e.errors.length > 0 ? allowedConstants(e) : undefined;
    if (allowed) {
      yield { ...e, message: allowed };
      continue;
    }
    const nested = depth < 8 && e.errors.length > 0 ? closestVariantErrors(e) : undefined;
    if (nested) yield* flatten(nested, depth + 1);
    else yield e;
  }
}

/**
 * What was expected and what came; a characters bound says so in characters. Only the format check is the
 * bound: the same schema's pattern (or type) check failing is reported as what it is, not as a length the
 * value may well meet.
 */
function issueMessage(e: ValueError, got: unknown): string {
  const bounds =
    e.type === ValueErrorType.StringFormat && typeof e.schema.format === 'string'
      ? characterBounds(e.schema.format)
      : undefined;
  if (bounds && typeof got === 'string') {
    const max = bounds.max === Number.MAX_SAFE_INTEGER ? 'or more' : `to ${bounds.max}`;
    return `expected ${bounds.min} ${max} characters, got ${characterCount(got)} characters`;
  }
  // TypeBox words an additionalProperties refusal "Unexpected property"; say it as every other issue is said
  const expected = e.message
    .replace(/^Unexpected property$/, 'expected no member of this name')
    .replace(/^Expected/, 'expected');
  return `${expected}, got ${describeValue(got)}`;
}

/** Lists every problem with `value` against `schema` (empty when valid). */
export function schemaIssues(schema: TSchema, value: unknown): ValidationIssue[] {
  const checker = checkerFor(schema);
  if (checker.Check(value)) return [];
  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  /** Paths reported missing: that the absent value is also not a string says nothing more. */
  const missing = new Set<string>();
  for (const e of flatten(checker.Errors(value))) {
    const key = `${e.path}|${e.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const got = valueAt(value, e.path);
    if (got === undefined && missing.has(e.path)) continue;
    if (/^Expected required property/.test(e.message)) missing.add(e.path);
    issues.push({ path: e.path, message: issueMessage(e, got) });
    if (issues.length >= 20) break;
  }
  return issues;
}

/** Returns `value` typed as the schema's static type, or throws ValidationError listing each problem. */
export function validate<T extends TSchema>(schema: T, value: unknown, what: string): Static<T> {
  if (checkerFor(schema).Check(value)) return value as Static<T>;
  throw new ValidationError(what, schemaIssues(schema, value));
}

/** A type guard for the same check, for code that branches instead of throwing. */
export function conforms<T extends TSchema>(schema: T, value: unknown): value is Static<T> {
  return checkerFor(schema).Check(value);
}
