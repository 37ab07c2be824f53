/**
 * What `pentagate edge replay` reports about a recording (the fields are documented in the command's --help),
 * and its text rendering. All times are Unix ms of the recording's log time; offsets are ms from its first message.
 */
import type { VerdictOutcome } from '@pentagate/protocol';
import type { MeasuredSummary } from './measured-checks.js';

export const VERTICES = ['INVARIANT', 'ECONOMY', 'RISK', 'PROVENANCE', 'CONSENT'] as const;
export type VertexName = (typeof VERTICES)[number];

export interface TopicCount {
  topic: string;
  type: string;
  messages: number;
  /** `telemetry:<source>`, `intent`, `consent`, `observed, not gated: <why>` (read, checked, used by no gate), or `unbound: <why>`. */
  boundTo: string;
}

export interface FirstEvent {
  atMs: number;
  offsetMs: number;
  outcome: VerdictOutcome;
  intentId?: string;
  violation?: string;
}

export interface ReplaySummary {
  recording: string;
  robotId: string;
  /** Set when the recording could not be read to its end; everything before that point was replayed. */
  error?: string;
  /** What was wrong with a recording that was still read (a split file missing). */
  warnings: string[];
  firstMessageMs: number | null;
  lastMessageMs: number | null;
  durationMs: number;
  messages: { total: number; byTopic: TopicCount[] };
  /** Messages not fed to the gates, by reason (recording problems, mapping skips, unbound topics). */
  skipped: { total: number; byReason: Record<string, number>; examples: Record<string, string> };
  telemetry: {
    accepted: number;
    rejected: Record<string, number>;
    examples: Record<string, string>;
    /** Joint names in accepted joint states that the profile does not name (ignored; its own joints are checked). */
    ignoredJoints: string[];
  };
  intents: number;
  consents: number;
  verdicts: {
    total: number;
    byOutcome: Partial<Record<VerdictOutcome, number>>;
    byVertex: Record<VertexName, { passed: number; failed: number }>;
  };
  /** Signed motion commands and signed STOPs. */
  commands: { motion: number; stop: number };
  firstVeto: FirstEvent | null;
  firstFailureByVertex: Partial<Record<VertexName, FirstEvent>>;
  /** Messages stored after messages with a later log time, replayed in log-time order (log-time-order.ts). */
  logTimeReordered: number;
  /** Messages stored too far out of log-time order to be put back: replayed at the latest time seen. */
  logTimeBackwards: number;
  /** What the measured data shows by itself (measured-checks.ts): breaches with time, subject, value, limit. */
  measured: MeasuredSummary;
  /** The edge's own recorded verdicts, evidence, commands and diagnostics (counted, not fed to the gates). */
  recordedOutputs: number;
  /** The verdict recording written with --record, if any. */
  recordedTo?: string;
}

const entries = (r: Record<string, number>) => Object.entries(r).filter(([, n]) => n > 0);

function iso(ms: number | null): string {
  return ms === null ? '-' : new Date(ms).toISOString();
}

function first(label: string, e: FirstEvent): string {
  return `${label} +${(e.offsetMs / 1000).toFixed(3)} s (${iso(e.atMs)}) ${e.outcome}${e.intentId ? ` ${e.intentId}` : ''}${e.violation ? `: ${e.violation}` : ''}`;
}

export function renderReplaySummary(s: ReplaySummary): string {
  const lines: string[] = [];
  lines.push(`recording ${s.recording} (robot ${s.robotId})`);
  if (s.error) lines.push(`ERROR: ${s.error}`);
  for (const w of s.warnings) lines.push(`WARNING: ${w}`);
  lines.push(
    `  time      ${iso(s.firstMessageMs)} .. ${iso(s.lastMessageMs)} (${(s.durationMs / 1000).toFixed(3)} s)`,
  );
  lines.push(`  messages  ${s.messages.total}`);
  for (const t of s.messages.byTopic)
    lines.push(`    ${String(t.messages).padStart(7)}  ${t.topic}  [${t.type}] → ${t.boundTo}`);
  lines.push(`  skipped   ${s.skipped.total}`);
  for (const [reason, n] of entries(s.skipped.byReason)) {
    lines.push(
      `    ${String(n).padStart(7)}  ${reason}${s.skipped.examples[reason] ? ` (e.g. ${s.skipped.examples[reason]})` : ''}`,
    );
  }
  const rejected = entries(s.telemetry.rejected);
  lines.push(
    `  telemetry ${s.telemetry.accepted} accepted, ${rejected.reduce((a, [, n]) => a + n, 0)} rejected`,
  );
  for (const [reason, n] of rejected) {
    lines.push(
      `    ${String(n).padStart(7)}  ${reason}${s.telemetry.examples[reason] ? ` (e.g. ${s.telemetry.examples[reason]})` : ''}`,
    );
  }
  if (s.telemetry.ignoredJoints.length > 0) {
    lines.push(`    ignored joints not in the profile: ${s.telemetry.ignoredJoints.join(', ')}`);
  }
  lines.push(`  intents   ${s.intents}; consents ${s.consents}`);
  lines.push(
    `  verdicts  ${s.verdicts.total}: ${
      entries(s.verdicts.byOutcome as Record<string, number>)
        .map(([o, n]) => `${o} ${n}`)
        .join(', ') || 'none'
    }`,
  );
  for (const v of VERTICES) {
    const c = s.verdicts.byVertex[v];
    lines.push(`    ${v.padEnd(10)} passed ${c.passed}, failed ${c.failed}`);
  }
  lines.push(`  commands  ${s.commands.motion} motion, ${s.commands.stop} STOP`);
  lines.push(s.firstVeto ? first('  first veto', s.firstVeto) : '  first veto  none');
  for (const v of VERTICES) {
    const e = s.firstFailureByVertex[v];
    if (e) lines.push(first(`    first ${v} failure`, e));
  }
  const inBreach = entries(s.measured.framesInBreach as Record<string, number>);
  lines.push(
    `  measured  ${s.measured.breaches.length} ${s.measured.breaches.length === 1 ? 'breach' : 'breaches'}${inBreach.length ? ` (frames in breach: ${inBreach.map(([c, n]) => `${c} ${n}`).join(', ')})` : ''}`,
  );
  for (const b of s.measured.breaches) {
    const offset = ((b.atMs - (s.firstMessageMs ?? b.atMs)) / 1000).toFixed(3);
    lines.push(`    +${offset} s  ${b.check.padEnd(14)} ${b.detail}`);
  }
  for (const [check, n] of Object.entries(s.measured.notChecked)) {
    lines.push(`    not checked: ${check} on ${n.frames} frames (${n.why})`);
  }
  for (const n of s.measured.sourcesWithoutFrames) {
    lines.push(`    no data: ${n.source} gave no frame, so ${n.checks.join(', ')} not checked (${n.why})`);
  }
  if (s.recordedOutputs > 0)
    lines.push(
      `  recorded  ${s.recordedOutputs} of the edge's own decisions (counted, not fed to the gates)`,
    );
  if (s.logTimeReordered > 0)
    lines.push(`  ${s.logTimeReordered} messages stored out of log-time order, replayed in log-time order`);
  if (s.logTimeBackwards > 0)
    lines.push(
      `  log time went backwards ${s.logTimeBackwards === 1 ? 'once' : `${s.logTimeBackwards} times`} (replayed at the latest time seen)`,
    );
  if (s.recordedTo) lines.push(`  verdicts recorded to ${s.recordedTo}`);
  return lines.join('\n');
}
