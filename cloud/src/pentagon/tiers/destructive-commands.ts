/**
 * RISK: commands that destroy a file system or a database table, in the arguments of any tool. The screen's
 * `tool.destructive-shell` rule (injection/rules/tool-abuse.ts) names `rm -rf /`, `mkfs`, `dd` and `DROP
 * DATABASE`; these are the destructive commands it does not name (outside attack review: `find / -delete` and
 * `shutil.rmtree('/')` were approved), and SQL that destroys a table in a tool the policy says runs SQL.
 * Both read every argument and its command readings (../command-readings.ts: `find / -d""elete` is
 * `find / -delete`), so a spelling a shell undoes does not hide one.
 */
import { matchesTool } from '../../policy/tool-name-forms.js';
import type { LoadedPolicy } from '../../policy/loaded-policy.js';
import { oneLine } from '../one-line.js';
import type { StringField } from '../string-fields.js';
import type { GovernedAction, RuleFinding } from '../types.js';
import { finding } from '../violation.js';
import { sqlStatements, tableDestruction } from './sql-statements.js';

/** The root or home directory as a shell names it, followed by a blank (`/`, `/*`, `~`, `$HOME`). */
const SHELL_ROOT = String.raw`(?:\/\*?|~\/?|\$HOME\/?|\$\{HOME\}\/?)(?=\s)`;
/** The root or home directory as Python names it (`rmtree('~')` removes a directory named `~`). */
const PYTHON_ROOT = String.raw`(?:\/\*?|os\.sep|os\.path\.expanduser\(\s*~\/?\s*\)|(?:pathlib\.)?Path(?:\.home\(\)|\(\s*\/\s*\)))`;

interface CommandPattern {
  id: string;
  what: string;
  pattern: RegExp;
}

const COMMANDS: readonly CommandPattern[] = [
  {
    // find(1) (POSIX.1-2017 XCU): `-delete` (GNU, BSD) or `-exec rm` removes every file the walk reaches
    id: 'find-delete',
    what: 'find deleting everything under the root or home directory',
    pattern: new RegExp(
      String.raw`\bfind\s+(?:-[HLP]\s+)*${SHELL_ROOT}[^|;&\n]{0,512}?\s-(?:delete\b|exec(?:dir)?\s+(?:\S*\/)?(?:rm|shred|unlink)\b)`,
      'i',
    ),
  },
  {
    // Python's shutil.rmtree deletes a directory tree; read on the quote-removed reading (`rmtree(/)`)
    id: 'python-rmtree',
    what: "Python's shutil.rmtree of the root or home directory",
    pattern: new RegExp(String.raw`\brmtree\(\s*${PYTHON_ROOT}\s*[,)]`),
  },
];

const EXCERPT_CHARS = 80;

export function destructiveCommands(
  policy: LoadedPolicy,
  action: GovernedAction,
  argumentFields: readonly StringField[],
  readings: readonly StringField[],
): RuleFinding[] {
  const findings: RuleFinding[] = [];
  for (const field of [...argumentFields, ...readings]) {
    for (const command of COMMANDS) {
      const m = command.pattern.exec(field.value);
      if (!m) continue;
      findings.push(
        finding(
          'RISK.DESTRUCTIVE_COMMAND',
          `${field.path} runs ${command.what}: "${oneLine(m[0], EXCERPT_CHARS)}"`,
          `remove the command from ${field.path}; an agent does not delete the root or home directory`,
          `tier2.proofFirewall/destructive-command/${command.id}`,
        ),
      );
    }
  }
  const sql = policy.sqlTools.find((r) => matchesTool(r.tools, action.toolName));
  if (!sql) return findings;
  for (const field of argumentFields) {
    for (const statement of sqlStatements(field.value)) {
      const what = tableDestruction(statement);
      if (!what) continue;
      findings.push(
        finding(
          'RISK.DESTRUCTIVE_COMMAND',
          `${field.path} ${what}: "${oneLine(statement, EXCERPT_CHARS)}" (rule ${sql.id}): ${sql.reason}`,
          `remove the statement from ${field.path}, or give a DELETE a WHERE clause; ${action.toolName} runs its arguments as SQL (rule ${sql.id})`,
          `tier2.proofFirewall/${sql.id}`,
        ),
      );
    }
  }
  return findings;
}
