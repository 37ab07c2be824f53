/**
 * The page's stand-in for @sinclair/typebox/compiler: TypeCompiler builds its checkers with `new Function`,
 * which the console's CSP (no 'unsafe-eval') forbids, so in the page a "compiled" checker is TypeBox's
 * interpreting Value.Check / Value.Errors over the same schema — same verdicts, same error iterator.
 */
import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

export const TypeCompiler = {
  Compile<T extends TSchema>(schema: T) {
    return {
      Check: (value: unknown): boolean => Value.Check(schema, value),
      Errors: (value: unknown) => Value.Errors(schema, value),
    };
  },
};
