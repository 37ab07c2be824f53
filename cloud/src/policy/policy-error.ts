/** The error `loadPolicy` throws: every problem in the document, each with its path and line. */
import { PentagateError } from '@pentagate/protocol';

export interface PolicyProblem {
  /** JSON Pointer into the document (`/budgets/0/amount`), or "" for the whole text. */
  path: string;
  /** 1-based line in the YAML source, when known. */
  line?: number;
  message: string;
}

export class PolicyError extends PentagateError {
  readonly problems: PolicyProblem[];

  constructor(source: string, problems: PolicyProblem[]) {
    const shown = problems
      .slice(0, 10)
      .map((p) => `${p.path || '/'}${p.line === undefined ? '' : ` (line ${p.line})`}: ${p.message}`);
    const more = problems.length > 10 ? `; and ${problems.length - 10} more` : '';
    super('POLICY_INVALID', `policy ${source}: ${shown.join('; ')}${more}`, { source, problems });
    this.problems = problems;
  }
}
