/**
 * The names a tool call could reach a tool by, for the policy's tool rules (deny, consent, hold, spend,
 * jurisdiction, custody, and a protected resource's tool scope). An agent runtime or MCP client that
 * routes `mcp:os.exec`, `local/os.exec`, `os.exec.` or `os..exec` to `os.exec`, or names it `os_exec`,
 * must not get past a rule written for `os.exec`. Every rule restricts, so matching any form fails closed.
 */
import { compileGlob, matchesAny } from './glob.js';

/** The tool-name separators (`tool_name` is `[A-Za-z0-9._:/-]`, §2.3 schema), read as one dot. */
const SEPARATORS = /[._:/-]+/g;

/**
 * Names longer than the schema's 128 characters are refused before they run (ToolNameSchema); the gates
 * still read them, as written and with separators folded, but not a suffix per segment (quadratic).
 */
const MAX_TOOL_NAME_CHARS = 128;

/** Forms of recently seen names: agents call a handful of tools, and each call reads every tool rule. */
const formsCache = new Map<string, readonly string[]>();
const FORMS_CACHE_SIZE = 1024;

/** The name with each run of separators read as one `.` and none at either end (`shell_exec` → `shell.exec`). */
export function foldedToolName(name: string): string {
  return name.replace(SEPARATORS, '.').replace(/^\.|\.$/g, '');
}

/**
 * The name as written; folded (foldedToolName: `shell_exec` → `shell.exec`, `mcp:os.exec` → `mcp.os.exec`);
 * and that name without each of its leading segments in turn, since a namespace prefix names where the tool
 * lives, not which tool it is (`mcp.os.exec` → `os.exec`, `exec`).
 */
export function toolNameForms(name: string): readonly string[] {
  const cached = formsCache.get(name);
  if (cached) return cached;
  const dotted = foldedToolName(name);
  if (name.length > MAX_TOOL_NAME_CHARS) return [name, dotted];
  const forms = new Set([name]);
  for (let start = 0; start >= 0 && start < dotted.length; ) {
    forms.add(dotted.slice(start));
    const dot = dotted.indexOf('.', start);
    start = dot < 0 ? -1 : dot + 1;
  }
  const list = [...forms];
  if (formsCache.size >= FORMS_CACHE_SIZE) formsCache.clear();
  formsCache.set(name, list);
  return list;
}

/**
 * A tool rule's globs, each as written and with its separators folded as a call's name is (foldedToolName):
 * a rule written for `email.send_bulk` must also hold `email.send-bulk`, `email/send_bulk` and
 * `mcp:email/send-bulk`, whose folded forms are `email.send.bulk` (outside review: those four were approved at
 * once while `email.send_bulk` was held). `*` and `?` are not separators and keep their meaning.
 */
export function compileToolGlobs(globs: readonly string[]): RegExp[] {
  const sources = new Set<string>();
  for (const glob of globs) {
    sources.add(glob);
    sources.add(foldedToolName(glob));
  }
  return [...sources].map((glob) => compileGlob(glob, 'name'));
}

/** True when a tool rule's globs match the tool under any name it could be reached by. */
export function matchesTool(globs: readonly RegExp[], toolName: string): boolean {
  return toolNameForms(toolName).some((form) => matchesAny(globs, form));
}
