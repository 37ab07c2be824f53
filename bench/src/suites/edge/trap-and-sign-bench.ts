/**
 * Speed (a): trapAndSign on one core for a 6-joint, 20-point trajectory in the UR5e cell with
 * ten keep-out zones, beside a bare HMAC-SHA256 over the same command bytes (the floor: what signing
 * alone costs) with node:crypto, the implementation the edge signs with; the portable @noble/hashes HMAC
 * the edge used before is measured too, for comparison. The gate sees a fixed `nowMs`, so frames stay fresh and every call runs all five gates
 * and signs; a call that does not sign aborts the benchmark rather than timing a veto.
 *
 * The fixture's numbers are short decimals (0.025, 1.2025). A motion planner's are full-precision doubles, whose
 * RFC 8785 form (ECMAScript Number::toString) takes V8 longer to write, so the same trajectory with every
 * position and velocity moved by less than a micro-radian is measured too ("planner precision"), and the signing
 * step alone ("sign"): what the wire contract costs whatever the gates do.
 *
 * Every call gates a new request (its own intentId): the gate refuses a copy of an intent it signed while that
 * motion may run (INPUT.DUPLICATE_INTENT), and with a fixed `nowMs` every earlier motion still runs.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { COMMAND_MAC_CONTEXT } from '@pentagate/crypto';
import { edgeCommandMacs, nodeHmacSha256 } from '@pentagate/edge';
import { canonicalBytes, type Intent, type MotorCommand, utf8Bytes } from '@pentagate/protocol';
import { type SectionResult, type SuiteContext, sectionOf, target } from '../../harness/index.js';
import { ur5eCell } from './ur5e-cell.js';

export function benchTrapAndSign(ctx: SuiteContext): SectionResult {
  const cell = ur5eCell();
  const nowMs = Date.now();
  const gate = cell.makeGate(() => nowMs);
  for (const frame of cell.frames(1, nowMs)) gate.ingestTelemetry(frame, nowMs);
  const intent = cell.trajectory('bench-move');
  const first = gate.trapAndSign(intent, nowMs);
  if (first.kind !== 'signed') {
    throw new Error(
      `edge bench: the benchmark intent was not signed: ${first.verdict.violations.join('; ')}`,
    );
  }
  const { mac: _mac, ...unsigned } = first.command as MotorCommand;
  const message = new Uint8Array([...utf8Bytes(COMMAND_MAC_CONTEXT), ...canonicalBytes(unsigned)]);

  const iterations = 20_000;
  const precise = plannerPrecision(intent);
  const firstPrecise = gate.trapAndSign(precise, nowMs);
  if (firstPrecise.kind !== 'signed') {
    throw new Error(
      `edge bench: the planner-precision intent was not signed: ${firstPrecise.verdict.violations[0]}`,
    );
  }
  // Built before timing, one per call (measureSync's `i` counts its warm-up calls, a tenth of the iterations, too).
  const requests = (base: Intent) => {
    const made = Array.from({ length: Math.ceil(iterations * 1.1) + 1 }, (_, i) => ({
      ...base,
      intentId: `${base.intentId}-${i}`,
    }));
    return (i: number) => made[i] ?? { ...base, intentId: `${base.intentId}-${i}` };
  };
  const move = requests(intent);
  const preciseMove = requests(precise);
  const trap = ctx.measureSync(
    'trapAndSign',
    (i) => {
      const r = gate.trapAndSign(move(i), nowMs);
      if (r.kind !== 'signed')
        throw new Error(`edge bench: trapAndSign stopped signing: ${r.verdict.violations[0]}`);
      return r;
    },
    { iterations },
  );
  const trapPrecise = ctx.measureSync(
    'trapAndSign (planner precision)',
    (i) => {
      const r = gate.trapAndSign(preciseMove(i), nowMs);
      if (r.kind !== 'signed')
        throw new Error(`edge bench: trapAndSign stopped signing: ${r.verdict.violations[0]}`);
      return r;
    },
    { iterations },
  );
  // The signing step alone (RFC 8785 JCS of the command, then its HMAC), as trapAndSign does it: the part of a
  // call the wire contract fixes whatever the gates cost.
  const sign = ctx.measureSync('sign (JCS + HMAC)', () => edgeCommandMacs.sign(cell.hmacKey.key, unsigned), {
    iterations,
  });
  const bare = ctx.measureSync('hmac', () => nodeHmacSha256(cell.hmacKey.key, message), { iterations });
  const noble = ctx.measureSync('hmac (noble)', () => hmac(sha256, cell.hmacKey.key, message), {
    iterations,
  });
  const ratio = trap.p99Us / bare.p99Us;
  return sectionOf([trap, trapPrecise, sign, bare, noble], {
    figures: {
      'trapAndSign.p99OverHmacP99': ratio,
      // On a shared machine the p99s are mostly scheduler waits; the p50 and min ratios show the work itself.
      'trapAndSign.p50OverHmacP50': trap.p50Us / bare.p50Us,
      'trapAndSign.minOverHmacMin': trap.minUs / bare.minUs,
      // What the gates, validation and verdict add on top of signing, at the median.
      'trapAndSign.p50MinusSignP50Us': trap.p50Us - sign.p50Us,
      'command.bytes': message.length,
    },
    targets: [
      target('trapAndSign p99', trap.p99Us, '<=', 100, 'µs'),
      target('trapAndSign p99 / bare HMAC p99', ratio, '<=', 20, '×'),
    ],
    notes: [
      `trapAndSign: ${cell.profile.joints.length} joints × 20 points, ${cell.profile.keepOut.zones.length} keep-out zones ` +
        `(${cell.profile.robotId}), all five gates + JCS + HMAC; sign: JCS + HMAC of the same command without the gates; hmac: node:crypto HMAC-SHA256 over the same ` +
        `${message.length} command bytes; hmac (noble): the portable implementation, same bytes`,
    ],
  });
}

/**
 * The intent with every position and velocity moved by less than 1e-6 rad (rad/s), so each is a full-precision
 * double like a planner's output (0.01500000037…) rather than a short decimal; limits and zones are far away.
 */
function plannerPrecision(intent: Intent): Intent {
  if (intent.kind !== 'joint-trajectory') return intent;
  const nudge = (x: number, i: number, j: number) => x + Math.sin(7 * i + j + 1) * 1e-7;
  return {
    ...intent,
    points: intent.points.map((p, i) => ({
      ...p,
      positionsRad: p.positionsRad.map((x, j) => nudge(x, i, j)),
      ...(p.velocitiesRadS ? { velocitiesRadS: p.velocitiesRadS.map((x, j) => nudge(x, i, j)) } : {}),
    })),
  };
}
