/**
 * Checks a scenario's expectations against its trace. Each expectation yields a result with a readable
 * detail, so a failed run says what happened instead of only that it failed.
 */
import { edgeViolationCode } from '@pentagate/protocol';
import { verifyCommandMac } from '@pentagate/crypto';
import type { CountCondition, Expectations } from '../scenarios/scenario-schema.js';
import { ATTACK_REJECTION } from './command-wire.js';
import type { ScenarioTrace } from './trace.js';

export interface ExpectationResult {
  name: string;
  ok: boolean;
  detail: string;
}

export interface VetoLatency {
  /** Scenario time of the first frame showing the human inside, ms. */
  tMs: number;
  latencyMs: number | null;
  kind: 'stop' | 'veto';
}

const ALIASES: Record<string, string> = {
  ...ATTACK_REJECTION,
  replay: 'replayed-seq',
  tamper: 'bad-mac',
};

/** `">=1"` against `n`. */
export function countSatisfies(n: number, condition: CountCondition): boolean {
  if (typeof condition === 'number') return n === condition;
  const m = /^(>=|<=|==|>|<)\s*([0-9]+)$/.exec(condition);
  if (!m) return false;
  const k = Number(m[2]);
  switch (m[1]) {
    case '>=':
      return n >= k;
    case '<=':
      return n <= k;
    case '>':
      return n > k;
    case '<':
      return n < k;
    default:
      return n === k;
  }
}

/** The spans during which telemetry showed a person inside the radius; an open span ends at infinity. */
function insideEpisodes(trace: ScenarioTrace): { enteredAtMs: number; leftAtMs: number }[] {
  const episodes: { enteredAtMs: number; leftAtMs: number }[] = [];
  let enteredAtMs: number | undefined;
  for (const p of trace.proximity) {
    const inside = p.nearestHumanM !== null && p.nearestHumanM < trace.radiusM;
    if (inside) enteredAtMs ??= p.atMs;
    else if (enteredAtMs !== undefined) {
      episodes.push({ enteredAtMs, leftAtMs: p.atMs });
      enteredAtMs = undefined;
    }
  }
  if (enteredAtMs !== undefined) episodes.push({ enteredAtMs, leftAtMs: Number.POSITIVE_INFINITY });
  return episodes;
}

/**
 * Stops and vetoes measured against the first moment the robot moved with a person inside the radius: the
 * first telemetry frame showing them inside, or — when a move command reached the controller after that
 * frame (a slow or loaded cell) — that command's arrival. Counting only motions already running at the
 * entry frame would miss such a motion and its stop altogether.
 */
export function vetoLatencies(trace: ScenarioTrace): VetoLatency[] {
  const out: VetoLatency[] = [];
  const halts = trace.controller.filter((e) => e.kind === 'halted' && e.cause === 'stop-command');
  const moves = trace.controller.filter((e) => e.kind === 'accepted' && e.command.setpoints.kind !== 'stop');
  const haltedBetween = (fromMs: number, toMs: number) =>
    halts.some((h) => h.atMs >= fromMs && h.atMs <= toMs);
  // A motion runs from an accepted move command until the next halt.
  for (const { enteredAtMs, leftAtMs } of insideEpisodes(trace)) {
    const running = moves.find((a) => a.atMs <= enteredAtMs && !haltedBetween(a.atMs, enteredAtMs));
    const startedInside = moves.find((a) => a.atMs > enteredAtMs && a.atMs < leftAtMs);
    const movingFromMs = running ? enteredAtMs : startedInside?.atMs;
    if (movingFromMs === undefined) continue;
    const halt = halts.find((h) => h.atMs >= movingFromMs);
    out.push({
      tMs: movingFromMs - trace.startedAtMs,
      latencyMs: halt ? halt.atMs - movingFromMs : null,
      kind: 'stop',
    });
  }
  // Intents sent while someone was inside: the veto verdict's arrival against the intent's publication.
  for (const [intentId, atMs] of trace.intentsAtMs) {
    const last = [...trace.proximity].reverse().find((p) => p.atMs <= atMs);
    if (!last || last.nearestHumanM === null || last.nearestHumanM >= trace.radiusM) continue;
    const v = trace.verdicts.find((x) => x.verdict.intentId === intentId && x.verdict.outcome === 'vetoed');
    out.push({ tMs: atMs - trace.startedAtMs, latencyMs: v ? v.receivedAtMs - atMs : null, kind: 'veto' });
  }
  return out;
}

function executedIntents(trace: ScenarioTrace): Set<string> {
  return new Set(
    trace.controller.flatMap((e) =>
      e.kind === 'accepted' && e.command.setpoints.kind !== 'stop' ? [e.command.intentId] : [],
    ),
  );
}

export function checkExpectations(
  expect: Expectations,
  trace: ScenarioTrace,
  hmacKey: Uint8Array,
): ExpectationResult[] {
  const results: ExpectationResult[] = [];
  const add = (name: string, ok: boolean, detail: string) => results.push({ name, ok, detail });

  if (expect.vetoWithinMs !== undefined) {
    const lat = vetoLatencies(trace);
    const worst = lat.reduce(
      (m, l) => (l.latencyMs === null ? Number.POSITIVE_INFINITY : Math.max(m, l.latencyMs)),
      0,
    );
    const ok = lat.length > 0 && worst <= expect.vetoWithinMs;
    add(
      `vetoWithinMs ${expect.vetoWithinMs}`,
      ok,
      lat.length === 0
        ? 'no person entered the radius during a motion or an intent'
        : `${lat.length} stop/veto(s); worst ${Number.isFinite(worst) ? `${worst} ms` : 'never stopped'}`,
    );
  }

  if (expect.noMotionWhile === 'humanInRadius') {
    // Grace: one sensor period and latency plus the allowed veto time, for the robot to hear of the person.
    const graceMs = (expect.vetoWithinMs ?? 100) + 60;
    let enteredAt: number | undefined;
    const bad: number[] = [];
    for (const s of trace.samples) {
      const inside = s.nearestHumanM !== null && s.nearestHumanM < trace.radiusM;
      if (!inside) enteredAt = undefined;
      else enteredAt ??= s.tMs;
      if (inside && s.moving && enteredAt !== undefined && s.tMs - enteredAt > graceMs) bad.push(s.tMs);
    }
    add(
      'noMotionWhile humanInRadius',
      bad.length === 0,
      bad.length === 0
        ? `no motion with a person inside ${trace.radiusM} m (after ${graceMs} ms grace)`
        : `moved with a person inside ${trace.radiusM} m at t=${bad[0]} ms (${bad.length} steps)`,
    );
  }

  if (expect.noUnsignedMotion) {
    const accepted = trace.controller.filter((e) => e.kind === 'accepted');
    const badMac = accepted.filter((e) => e.kind === 'accepted' && !verifyCommandMac(hmacKey, e.command));
    const announced = new Set(
      trace.verdicts.flatMap((v) => (v.verdict.commandSeq ? [v.verdict.commandSeq] : [])),
    );
    const unannounced = accepted.filter(
      (e) => e.kind === 'accepted' && e.command.setpoints.kind !== 'stop' && !announced.has(e.command.seq),
    );
    const orphanMotion = trace.samples.filter((s) => s.moving && s.executingSeq === null).length;
    const ok = badMac.length === 0 && unannounced.length === 0 && orphanMotion <= 2;
    add(
      'noUnsignedMotion',
      ok,
      ok
        ? `${accepted.length} accepted command(s), each MAC-verified and announced by a signed verdict`
        : `${badMac.length} accepted without a valid MAC, ${unannounced.length} never announced by a verdict, ${orphanMotion} steps of motion without a command`,
    );
  }

  for (const [reason, cond] of Object.entries(expect.controllerRejected ?? {})) {
    const canonical = ALIASES[reason] ?? reason;
    const n = trace.controller.filter((e) => e.kind === 'rejected' && e.reason === canonical).length;
    add(
      `controllerRejected ${reason} ${cond}`,
      countSatisfies(n, cond),
      `controller refused ${n} as ${canonical}`,
    );
  }

  for (const [outcome, cond] of Object.entries(expect.verdicts ?? {})) {
    const n = trace.verdicts.filter((v) => v.verdict.outcome === outcome).length;
    add(`verdicts ${outcome} ${cond}`, countSatisfies(n, cond), `${n} ${outcome} verdict(s)`);
  }

  const allViolations = trace.verdicts.flatMap((v) => v.verdict.violations);
  for (const code of expect.violations ?? []) {
    const hit = allViolations.find((v) => edgeViolationCode(v) === code);
    add(
      `violation ${code}`,
      hit !== undefined,
      hit ??
        `not among ${new Set(allViolations.map((v) => v.split(':')[0])).size} codes seen: ${[...new Set(allViolations.map((v) => v.split(':')[0]))].join(', ') || 'none'}`,
    );
  }

  const executed = executedIntents(trace);
  for (const id of expect.executed ?? [])
    add(`executed ${id}`, executed.has(id), executed.has(id) ? 'executed' : 'never executed');
  for (const id of expect.notExecuted ?? []) {
    add(
      `notExecuted ${id}`,
      !executed.has(id),
      executed.has(id) ? 'the controller executed it' : 'not executed',
    );
  }

  if (expect.watchdogHalts !== undefined) {
    const n = trace.controller.filter((e) => e.kind === 'halted' && e.cause === 'watchdog').length;
    add(
      `watchdogHalts ${expect.watchdogHalts}`,
      countSatisfies(n, expect.watchdogHalts),
      `${n} watchdog halt(s)`,
    );
  }
  return results;
}
