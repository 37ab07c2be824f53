/**
 * The EdgeGate: trapAndSign (ARCHITECTURE.md §4). An intent becomes an HMAC-signed motor command only when all
 * five gates pass on fresh telemetry; otherwise it is vetoed, or it waits for an operator's consent. While a
 * signed motion runs, every telemetry update re-checks RISK and INVARIANT and, on failure, returns a signed
 * STOP with a bumped epoch. Nothing from outside ever throws out of this class or yields a signature without
 * the gates: malformed input gets a `rejected-input` verdict naming the problem.
 *
 * Epoch: bumped on every stop, on configuration change, and when a gate is constructed (a restart is a
 * configuration change: commands signed by the previous process are dead to the controller once a newer one
 * lands).
 */
import { TrustStore, jcsDigestHex } from '@pentagate/crypto';
import {
  type ConsentRequest,
  type GateResult,
  type Intent,
  IntentSchema,
  type MotorCommand,
  type RobotProfile,
  type Setpoints,
  type TrustedKey,
  type UnsignedMotorCommand,
  edgeViolation,
  hasEdgeViolation,
  isIntent,
  schemaIssues,
} from '@pentagate/protocol';
import { consentRequest } from '../gates/consent-request.js';
import { ConsentWaits, MAX_CONSENT_WAITS } from './consent-waits.js';
import type { SpentConsentNonces } from './spent-consent-nonces.js';
import { stopReason } from './stop-reason.js';
import type { GateContext } from '../gates/gate-context.js';
import { type MotionPlan, planMotion } from '../gates/motion-plan.js';
import {
  type ProvenanceDocuments,
  type ProvenanceLoadReport,
  ProvenanceRegistry,
  provenanceStartProblems,
} from '../gates/provenance-registry.js';
import { edgeCommandMacs } from '../crypto/node-hmac.js';
import { type CompiledProfile, compileProfile } from '../profile/compiled-profile.js';
import { type StoredFrame, type TelemetryRejection, TelemetryStore } from '../telemetry/telemetry-store.js';
import type { SequenceStore } from './sequence-store.js';
import type { MotionStop, TelemetryOutcome, TrapResult } from './trap-result.js';
import { telemetryOutcome } from './telemetry-intake.js';
import { admitConsent, consentDenied, consentExpired } from './consent-intake.js';
import { evidenceDigest } from './evidence-digest.js';
import { runFiveGates } from './five-gates.js';
import {
  type ActiveMotion,
  elapsedPlanMs,
  motionEndsAtMs,
  recheckMotion,
  startedMotion,
} from './motion-monitor.js';
import { type SignedIntent, SignedIntents } from './signed-intents.js';
import { commandFields, verdict, veto } from './verdicts.js';

export type { ActiveMotion } from './motion-monitor.js';

export interface EdgeGateOptions {
  profile: RobotProfile;
  /** Keys for consent (operator), firmware manifests (vendor) and calibration certificates (calibration). */
  trust: TrustStore;
  /** The HMAC key shared with the controller, and its key id (`hmacKeyId(key)`). */
  hmacKey: { kid: string; key: Uint8Array };
  /** The sensor nodes' HMAC keys by key id, for sources the profile marks `authenticated`. */
  sensorKeys?: ReadonlyMap<string, Uint8Array>;
  sequence: SequenceStore;
  /** Consent nonces already spent; in memory when absent (`edge run` keeps them in its state directory). */
  spentConsentNonces?: SpentConsentNonces;
  /** Unix ms; defaults to Date.now. */
  clock?: () => number;
}

function intentIdOf(input: unknown): string | undefined {
  const id = (input as { intentId?: unknown } | null)?.intentId;
  return typeof id === 'string' && /^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$/.test(id) ? id : undefined;
}

export class EdgeGate {
  #cp: CompiledProfile;
  #telemetry: TelemetryStore;
  readonly #provenance = new ProvenanceRegistry();
  /** The profile's trust, plus the operator keys from the cloud (`trustOperatorKeys`). */
  #trust: TrustStore;
  readonly #ownTrust: TrustStore;
  readonly #hmac: { kid: string; key: Uint8Array };
  readonly #sensorKeys: ReadonlyMap<string, Uint8Array>;
  readonly #sequence: SequenceStore;
  readonly #clock: () => number;
  readonly #consents: ConsentWaits;
  readonly #signedIntents = new SignedIntents();
  #motion: ActiveMotion | undefined;

  constructor(options: EdgeGateOptions) {
    this.#cp = compileProfile(options.profile);
    this.#sensorKeys = options.sensorKeys ?? new Map();
    this.#telemetry = new TelemetryStore(options.profile, this.#sensorKeys);
    this.#trust = options.trust;
    this.#ownTrust = options.trust;
    this.#hmac = options.hmacKey;
    this.#sequence = options.sequence;
    this.#clock = options.clock ?? Date.now;
    this.#consents = new ConsentWaits(options.spentConsentNonces);
    this.#sequence.bumpEpoch();
  }

  get profile(): RobotProfile {
    return this.#cp.profile;
  }

  /** SHA-256 of the JCS profile; every signed command carries it as `cfgDigest`. */
  get cfgDigest(): string {
    return this.#cp.cfgDigest;
  }

  get epoch(): number {
    return this.#sequence.epoch();
  }

  get activeMotion(): ActiveMotion | undefined {
    return this.#motion;
  }

  /** Intent digests waiting for consent, with their deadlines. */
  waitingConsents(): { intentDigest: string; intentId: string; deadlineMs: number }[] {
    return this.#consents.entries().map(([d, w]) => ({
      intentDigest: d,
      intentId: w.intent.intentId,
      deadlineMs: w.deadlineMs,
    }));
  }

  /** What an operator needs to judge a waiting intent (posted to the cloud's approvals queue). */
  consentRequest(intentDigest: string): ConsentRequest | undefined {
    const parked = this.#consents.get(intentDigest);
    return parked && consentRequest(this.#cp, intentDigest, parked);
  }

  /**
   * Also trusts these operator keys for consent (the operators the cloud's registry enrolled for this
   * robot's tenant), beside the profile's own trust document. Only the `operator` role is taken from them:
   * a key from the link can never sign firmware, calibration or anything else. Replaces the last set.
   */
  trustOperatorKeys(keys: readonly TrustedKey[]): void {
    const own = this.#ownTrust.keys();
    const ownKids = new Set(own.map((k) => k.kid));
    const linked = keys.filter((k) => k.role === 'operator' && !ownKids.has(k.kid));
    if (own.length + linked.length === 0) return;
    this.#trust = TrustStore.fromDocument({ keys: [...own, ...linked] }, 'operator keys from the cloud');
  }

  /**
   * Whether `kid` is a key of the profile's own trust document: one the cloud can neither add nor take away
   * (a key from the cloud with the same id is ignored), so a token it signs needs no word from the cloud.
   */
  isProfileKey(kid: string): boolean {
    return this.#ownTrust.get(kid) !== undefined;
  }

  telemetryRejections(): Record<TelemetryRejection, number> {
    return this.#telemetry.rejectionCounts();
  }

  /** Verifies and adds firmware manifests and calibration certificates (DSSE envelopes). */
  loadProvenance(docs: ProvenanceDocuments, nowMs = this.#clock()): ProvenanceLoadReport {
    return this.#provenance.load(this.#trust, docs, this.#cp.profile.robotId, nowMs);
  }

  /** Why PROVENANCE cannot pass now whatever arrives (provenanceStartProblems), for a loud line at start. */
  provenanceProblems(report: ProvenanceLoadReport, nowMs = this.#clock()): string[] {
    return provenanceStartProblems(this.#cp.profile, this.#provenance, report, nowMs);
  }

  #context(
    plan: MotionPlan,
    nowMs: number,
    consentGranted: boolean,
    elapsedMs = 0,
    monitoring = false,
  ): GateContext {
    return {
      cp: this.#cp,
      telemetry: this.#telemetry,
      nowMs,
      plan,
      provenance: this.#provenance,
      evidence: new Map<string, StoredFrame>(),
      speedScale: 1,
      consentGranted,
      elapsedMs,
      monitoring,
    };
  }

  #rejected(input: unknown, violation: string, nowMs: number): TrapResult {
    return veto({
      robotId: this.#cp.profile.robotId,
      intentId: intentIdOf(input),
      outcome: 'rejected-input',
      atMs: nowMs,
      violations: [violation],
    });
  }

  #setpoints(plan: MotionPlan, speedScale: number): Setpoints {
    const scale = speedScale < 1 ? { speedScale } : {};
    if (plan.kind === 'joint') {
      // Positions, times and efforts only: the gates sweep the joint-space-linear path between waypoints, and a
      // trajectory controller given velocities interpolates cubic splines instead (ros2_control's JTC), which
      // can swing far off that path (outside review: waypoints all at the start pose with ±3 rad/s velocities
      // swung the shoulder 1.5 rad, 30 cm into the table). Without them it moves along the path checked.
      const points = plan.intent.points.map(({ velocitiesRadS: _planned, ...point }) => point);
      return { kind: 'joint', jointNames: plan.intent.jointNames, points, ...scale };
    }
    const { linearMps, angularRadS, durationMs } = plan.intent;
    return { kind: 'twist', linearMps, angularRadS, durationMs, ...scale };
  }

  #sign(unsigned: Omit<UnsignedMotorCommand, 'v' | 'kid' | 'robotId' | 'cfgDigest'>): MotorCommand {
    return edgeCommandMacs.sign(this.#hmac.key, {
      v: 1,
      kid: this.#hmac.kid,
      robotId: this.#cp.profile.robotId,
      cfgDigest: this.#cp.cfgDigest,
      ...unsigned,
    });
  }

  /** Runs the gates for a planned intent and signs, vetoes, or parks it for consent. */
  #decide(intent: Intent, plan: MotionPlan, nowMs: number, consentGranted: boolean): TrapResult {
    const ctx = this.#context(plan, nowMs, consentGranted);
    const gates = runFiveGates(ctx);
    const digest = evidenceDigest(ctx.evidence);
    const base = {
      robotId: this.#cp.profile.robotId,
      intentId: intent.intentId,
      atMs: nowMs,
      gates,
      evidenceDigest: digest,
    };
    if (gates.every((g) => g.passed)) {
      const speedScale = ctx.speedScale;
      const seq = this.#sequence.next();
      const epoch = this.#sequence.epoch();
      const command = this.#sign({
        epoch,
        seq,
        issuedAt: nowMs,
        validUntil: nowMs + this.#cp.profile.command.validForMs,
        intentId: intent.intentId,
        setpoints: this.#setpoints(plan, speedScale),
        evidenceDigest: digest,
      });
      this.#motion = startedMotion(intent.intentId, seq, nowMs, ctx, this.#motion);
      this.#signedIntents.add(
        intent,
        {
          intentId: intent.intentId,
          commandSeq: seq,
          signedAtMs: nowMs,
          endsAtMs: motionEndsAtMs(nowMs, ctx),
        },
        nowMs,
      );
      return {
        kind: 'signed',
        command,
        verdict: verdict({
          ...base,
          outcome: 'signed',
          ...commandFields(command),
          ...(speedScale < 1 ? { speedScale } : {}),
        }),
      };
    }
    const failing = gates.filter((g) => !g.passed);
    const onlyConsent =
      failing.length === 1 &&
      failing[0]!.vertex === 'CONSENT' &&
      failing[0]!.violations.every((v) => hasEdgeViolation([v], 'CONSENT.REQUIRED'));
    if (onlyConsent && !consentGranted) {
      const intentDigest = jcsDigestHex(intent);
      const deadlineMs = nowMs + this.#cp.profile.consent.timeoutMs;
      if (!this.#consents.park(intentDigest, { intent, plan, sinceMs: nowMs, deadlineMs })) {
        return veto({
          ...base,
          outcome: 'vetoed',
          violations: [
            ...failing[0]!.violations,
            edgeViolation(
              'CONSENT.TOO_MANY_WAITING',
              `${MAX_CONSENT_WAITS} intents already wait for an operator; this one is not parked`,
            ),
          ],
        });
      }
      return {
        kind: 'awaiting-consent',
        intentDigest,
        verdict: verdict({
          ...base,
          outcome: 'awaiting-consent',
          detail: `waiting for an operator consent statement bound to intent digest ${intentDigest} until ${new Date(deadlineMs).toISOString()}`,
        }),
      };
    }
    return veto({ ...base, outcome: 'vetoed' });
  }

  /** The refusal of a copy of an intent signed earlier whose motion may still run (signed-intents.ts). */
  #duplicate(intent: Intent, earlier: SignedIntent, nowMs: number): TrapResult {
    const at = (ms: number) => new Date(ms).toISOString();
    return this.#rejected(
      intent,
      edgeViolation(
        'INPUT.DUPLICATE_INTENT',
        `identical to intent ${earlier.intentId} signed at ${at(earlier.signedAtMs)} as command seq ${earlier.commandSeq}, whose motion may run until ${at(earlier.endsAtMs)}; a copy (an MQTT redelivery) is not signed again: send the move with a new intentId to repeat it`,
      ),
      nowMs,
    );
  }

  /** Gates an intent. Never throws; never signs unless all five gates pass. */
  trapAndSign(input: unknown, nowMs = this.#clock()): TrapResult {
    try {
      if (!isIntent(input)) {
        const issue = schemaIssues(IntentSchema, input)[0];
        return this.#rejected(
          input,
          edgeViolation(
            'INPUT.INTENT_INVALID',
            `${issue ? `${issue.path || '/'}: ${issue.message}` : 'not an intent'}`,
          ),
          nowMs,
        );
      }
      const plan = planMotion(input, this.#cp);
      if (typeof plan === 'string')
        return this.#rejected(input, edgeViolation('INPUT.INTENT_INVALID', `${plan}`), nowMs);
      const earlier = this.#signedIntents.running(input, nowMs);
      if (earlier) return this.#duplicate(input, earlier, nowMs);
      return this.#decide(input, plan, nowMs, false);
    } catch (err) {
      return this.#rejected(
        input,
        edgeViolation('INPUT.INTERNAL_ERROR', `${(err as Error)?.message ?? String(err)}`),
        nowMs,
      );
    }
  }

  /**
   * Takes an operator's consent (a DSSE envelope of a ConsentStatement). A valid one resumes the waiting intent
   * it is bound to: the gates run again on fresh telemetry and the result is signed or vetoed. An invalid one
   * is vetoed with the reason; the intent keeps waiting until its timeout. A valid denial (decision `deny`)
   * ends the wait with a CONSENT.DENIED veto.
   */
  submitConsent(envelope: unknown, nowMs = this.#clock()): TrapResult {
    try {
      const outcome = admitConsent(envelope, this.#trust, this.#cp, this.#consents, nowMs);
      if ('refused' in outcome) {
        const { violation, intentId, detail } = outcome.refused;
        return veto({
          robotId: this.#cp.profile.robotId,
          intentId,
          outcome: 'vetoed',
          atMs: nowMs,
          violations: [violation],
          ...(detail ? { detail } : {}),
        });
      }
      if ('denied' in outcome) return consentDenied(this.#cp, outcome.denied, outcome.operatorId, nowMs);
      const { intent, plan } = outcome.released;
      return this.#decide(intent, plan, nowMs, true);
    } catch (err) {
      return this.#rejected(
        envelope,
        edgeViolation('INPUT.INTERNAL_ERROR', `${(err as Error)?.message ?? String(err)}`),
        nowMs,
      );
    }
  }

  /** Turns every wait past its deadline into a `consent-expired` veto; forgets nonces of expired statements. */
  expireConsents(nowMs = this.#clock()): TrapResult[] {
    return this.#consents.expire(nowMs).map((w) => consentExpired(this.#cp, w, nowMs));
  }

  /** A signed STOP. Always allowed; bumps the epoch first so no earlier command is accepted after it. */
  protectiveStop(reason: string, nowMs = this.#clock(), evidenceDigest = jcsDigestHex([])): MotorCommand {
    const epoch = this.#sequence.bumpEpoch();
    const intentId = this.#motion?.intentId ?? `stop-${nowMs}`;
    this.#motion = undefined;
    return this.#sign({
      epoch,
      seq: this.#sequence.next(),
      issuedAt: nowMs,
      validUntil: nowMs + this.#cp.profile.command.validForMs,
      intentId,
      setpoints: { kind: 'stop', reason: stopReason(reason) },
      evidenceDigest,
    });
  }

  /** Bumps the epoch; with a new profile, also forgets telemetry, waits and the motion in progress. */
  configurationChanged(profile?: RobotProfile): void {
    this.#sequence.bumpEpoch();
    this.#motion = undefined;
    if (profile) {
      this.#cp = compileProfile(profile);
      this.#telemetry = new TelemetryStore(profile, this.#sensorKeys);
      this.#consents.dropWaits();
    }
  }

  /**
   * Re-checks RISK and INVARIANT for the motion in progress (ARCHITECTURE.md §4 continuous monitoring).
   * Returns a signed STOP and its verdict when either fails; nothing when all is well or nothing moves.
   * Call it on every telemetry update (ingestTelemetry does) and on a timer, so a source that goes silent
   * is caught by its maxAgeMs.
   */
  monitor(nowMs = this.#clock()): MotionStop | undefined {
    const m = this.#motion;
    if (!m) return undefined;
    if (nowMs > m.endsAtMs) {
      this.#motion = undefined;
      return undefined;
    }
    try {
      const ctx = this.#context(m.plan, nowMs, true, elapsedPlanMs(m, nowMs), true);
      const failed = recheckMotion(m, ctx);
      if (!failed) return undefined;
      const violations = failed.gates.flatMap((g) => g.violations);
      const stop = this.protectiveStop(violations[0] ?? 'protective stop', nowMs, failed.evidenceDigest);
      return this.#motionStopped(m, stop, nowMs, failed);
    } catch (err) {
      const stop = this.protectiveStop(`monitor error: ${(err as Error)?.message ?? String(err)}`, nowMs);
      return this.#motionStopped(m, stop, nowMs, {
        violations: [edgeViolation('INVARIANT.GATE_ERROR', 'monitoring failed; stopped')],
      });
    }
  }

  /** The STOP of the motion in progress and its `stopped` verdict. */
  #motionStopped(
    m: ActiveMotion,
    stop: MotorCommand,
    nowMs: number,
    why: { gates: GateResult[]; evidenceDigest: string } | { violations: string[] },
  ): MotionStop {
    return {
      stop,
      verdict: verdict({
        robotId: this.#cp.profile.robotId,
        intentId: m.intentId,
        outcome: 'stopped',
        atMs: nowMs,
        ...why,
        ...commandFields(stop),
      }),
    };
  }

  /**
   * A message on `topicSource`'s telemetry topic that is not even JSON (edge-node.ts refuses it): the source's
   * latest frame is withdrawn as for any unusable frame, and a running motion re-checked at once.
   */
  unreadableTelemetry(topicSource: string, arrivalMs = this.#clock()): MotionStop | undefined {
    return this.#telemetry.withdrawUnreadable(topicSource) ? this.monitor(arrivalMs) : undefined;
  }

  /**
   * Stores a telemetry frame (never throws) and re-checks the motion in progress. `topicSource`: the source
   * whose topic carried the frame; an unusable frame there withdraws that source's latest frame
   * (telemetry-store.ts).
   */
  ingestTelemetry(frame: unknown, arrivalMs = this.#clock(), topicSource?: string): TelemetryOutcome {
    const r = this.#telemetry.ingest(frame, arrivalMs, topicSource);
    // A refused frame that withdrew its source's latest frame re-checks a running motion at once (stopping it,
    // the source now reading as missing) rather than at the next tick; an accepted one always re-checks.
    const stopped = r.accepted || r.withdrawn ? this.monitor(arrivalMs) : undefined;
    return telemetryOutcome(this.#cp.profile.robotId, r, arrivalMs, stopped);
  }
}
