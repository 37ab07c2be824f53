/**
 * Table-driven refusal checks: each case edits a fresh valid example at a JSON Pointer and expects
 * `validate()` to throw a ValidationError whose issues and message name the offending path.
 */
import type { TSchema } from '@sinclair/typebox';
import type { Test } from 'tap';
import { ValidationError, validate } from '@pentagate/protocol';

type Json = Record<string, unknown> | unknown[];

function parentOf(root: unknown, pointer: string): [Json, string] {
  const keys = pointer
    .split('/')
    .slice(1)
    .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
  const last = keys.pop()!;
  let cur = root as Json;
  for (const k of keys) cur = (cur as Record<string, unknown>)[k] as Json;
  return [cur, last];
}

export type Edit = (value: unknown) => void;

/** Sets the member at `pointer` (creating it when absent). */
export const set =
  (pointer: string, replacement: unknown): Edit =>
  (value) => {
    const [parent, key] = parentOf(value, pointer);
    (parent as Record<string, unknown>)[key] = replacement;
  };

/** Removes the member at `pointer`. */
export const drop =
  (pointer: string): Edit =>
  (value) => {
    const [parent, key] = parentOf(value, pointer);
    delete (parent as Record<string, unknown>)[key];
  };

/** One bad input: a label, the edit that makes it bad, and the path the error must name. */
export type RefusalCase = [label: string, edit: Edit, path: string];

export function refusesEach(
  t: Test,
  what: string,
  schema: TSchema,
  make: () => unknown,
  cases: readonly RefusalCase[],
): void {
  t.test(`${what}: refuses each class of bad input with its path`, async (t) => {
    for (const [label, edit, path] of cases) {
      const value = make();
      edit(value);
      try {
        validate(schema, value, what);
        t.fail(`${label}: accepted`);
      } catch (err) {
        if (!(err instanceof ValidationError)) throw err;
        const paths = err.issues.map((i) => i.path);
        t.ok(paths.includes(path), `${label}: names ${path} (got ${paths.join(', ')})`);
        t.match(err.message, `${what}: `, `${label}: message says what was read`);
        t.match(err.message, `${path || '/'}: `, `${label}: message names the path`);
      }
    }
  });
}
