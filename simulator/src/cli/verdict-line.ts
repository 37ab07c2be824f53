/**
 * One line per verdict for a terminal: local time, outcome, intent, command seq and the violations.
 * `signed 5` means the edge signed command seq 5.
 */
import type { VerdictEvent } from '@pentagate/protocol';

export function verdictLine(v: VerdictEvent, maxViolationChars = 160): string {
  const time = new Date(v.atMs).toISOString().slice(11, 23);
  const seq = v.commandSeq !== undefined ? ` seq ${v.commandSeq}` : '';
  const scale = v.speedScale !== undefined ? ` speed ×${v.speedScale.toFixed(2)}` : '';
  const head = `${time}  ${v.outcome.toUpperCase().padEnd(16)} ${(v.intentId ?? '-').padEnd(12)}${seq}${scale}`;
  if (v.violations.length === 0) return head;
  const text = v.violations.join(' | ');
  return `${head}  ${text.length > maxViolationChars ? `${text.slice(0, maxViolationChars - 1)}…` : text}`;
}
