/**
 * Replays a rosbag2 MCAP recording through an EdgeGate in recorded time: each message is mapped by the same
 * module the live ROS 2 transport uses (edge/src/ros/message-mapping.ts) and handed to the gate with the
 * message's log time as "now", so staleness, consent timeouts and continuous monitoring behave as they would
 * have on the robot. Between messages the gate's monitor and consent expiry run on the node's period
 * (`monitorPeriodMs`), as the live node's timers do, while a motion runs or a consent is awaited.
 *
 * Nothing in a recording can make the gate sign without its five gates: bad records are counted as skips,
 * bad frames are refused by the gate's telemetry store, and a truncated or corrupt file ends the replay with
 * an error after everything before it was replayed.
 */
import type { MotorCommand, RobotProfile, TelemetryFrame, VerdictEvent } from '@pentagate/protocol';
import type { EdgeGate } from '../trap/edge-gate.js';
import type { TrapResult } from '../trap/trap-result.js';
import { RosMessageMapper } from '../ros/message-mapping.js';
import {
  type RosBinding,
  type RosRoleOverride,
  bindingForRecordedTopic,
  profileRoleForTopic,
} from '../ros/ros-bindings.js';
import {
  OWN_DIAGNOSTICS_TOPIC,
  OWN_INPUT_TYPE,
  OWN_OUTPUT_TYPES,
  type OwnInput,
  ownInput,
  outputsOnlyMessage,
} from './own-recording.js';
import { inLogTimeOrder, REORDER_WINDOW_NS } from './log-time-order.js';
import { MeasuredChecks } from './measured-checks.js';
import { missingMessages, recordedCounts } from './recorded-counts.js';
import { readRecording } from './recording-reader.js';
import type { RecordedItem } from './rosbag-reader.js';
import { type FirstEvent, type ReplaySummary, VERTICES, type VertexName } from './replay-summary.js';
import { IntentFeeds, SourceFeeds } from './source-feeds.js';
import { type UnsupportedTopic, unsupportedTopic, unsupportedTopicLine } from './unsupported-topics.js';
import type { VerdictRecorder } from './verdict-recorder.js';

/** What the replay does with a recorded topic of one type, decided once, before any of its messages is decoded. */
type TopicPlan =
  | { kind: 'own-input' }
  | { kind: 'own-output' }
  | { kind: 'bound'; binding: RosBinding }
  | { kind: 'unbound'; why: string }
  | { kind: 'unsupported'; unsupported: UnsupportedTopic }
  /** A channel or topic without a schema or type: its messages are problems (missing-schema). */
  | { kind: 'untyped' };

export interface ReplayOptions {
  bagPath: string;
  profile: RobotProfile;
  /** A gate for `profile`, with provenance loaded. Its clock is not used: every call passes the log time. */
  gate: EdgeGate;
  overrides?: Readonly<Record<string, RosRoleOverride>>;
  /** Check header stamps against the log time (default true); off for recordings stamped in sim time. */
  checkStamps?: boolean;
  /** How often the live node re-checks the motion and consent deadlines, ms (default 20, as EdgeNode). */
  monitorPeriodMs?: number;
  recorder?: VerdictRecorder;
  /** Called once with the first message's log time, before it is handled (e.g. to load provenance then). */
  onFirstMessage?: (logTimeMs: number) => void;
}

const NS_PER_MS = 1_000_000n;
/**
 * Log time before 2000-01-01 throughout is no wall-clock time: rosbag2 stamps messages with the recorder's clock, which is
 * the simulation's /clock under --use-sim-time (seconds from the simulation's start) and 1970 on a robot whose
 * clock was never set.
 */
const WALL_CLOCK_FROM_MS = Date.UTC(2000, 0, 1);

export async function replayRecording(options: ReplayOptions): Promise<ReplaySummary> {
  const { gate, profile } = options;
  const period = options.monitorPeriodMs ?? 20;
  const mapper = new RosMessageMapper({ robotId: profile.robotId, checkStamps: options.checkStamps ?? true });
  const plans = new Map<string, TopicPlan>();
  const topicCounts = new Map<string, { topic: string; type: string; messages: number; boundTo: string }>();
  const latestFrames = new Map<string, TelemetryFrame>();
  const summary: ReplaySummary = {
    recording: options.bagPath,
    robotId: profile.robotId,
    firstMessageMs: null,
    lastMessageMs: null,
    durationMs: 0,
    messages: { total: 0, byTopic: [] },
    skipped: { total: 0, byReason: {}, examples: {} },
    telemetry: { accepted: 0, rejected: {}, examples: {}, ignoredJoints: [] },
    intents: 0,
    consents: 0,
    verdicts: {
      total: 0,
      byOutcome: {},
      byVertex: Object.fromEntries(
        VERTICES.map((v) => [v, { passed: 0, failed: 0 }]),
      ) as ReplaySummary['verdicts']['byVertex'],
    },
    commands: { motion: 0, stop: 0 },
    firstVeto: null,
    firstFailureByVertex: {},
    logTimeReordered: 0,
    logTimeBackwards: 0,
    recordedOutputs: 0,
    measured: { breaches: [], framesInBreach: {}, notChecked: {}, sourcesWithoutFrames: [] },
    warnings: [],
  };
  const pending: Promise<void>[] = [];
  const measured = new MeasuredChecks(profile);

  const skip = (reason: string, detail: string) => {
    summary.skipped.total += 1;
    summary.skipped.byReason[reason] = (summary.skipped.byReason[reason] ?? 0) + 1;
    summary.skipped.examples[reason] ??= detail;
  };
  const firstEvent = (v: VerdictEvent, violation?: string): FirstEvent => ({
    atMs: v.atMs,
    offsetMs: v.atMs - (summary.firstMessageMs ?? v.atMs),
    outcome: v.outcome,
    ...(v.intentId ? { intentId: v.intentId } : {}),
    ...(violation ? { violation } : {}),
  });
  const onVerdict = (v: VerdictEvent) => {
    summary.verdicts.total += 1;
    summary.verdicts.byOutcome[v.outcome] = (summary.verdicts.byOutcome[v.outcome] ?? 0) + 1;
    for (const g of v.gates) {
      const vertex = g.vertex as VertexName;
      const c = summary.verdicts.byVertex[vertex];
      if (!c) continue;
      if (g.passed) c.passed += 1;
      else {
        c.failed += 1;
        summary.firstFailureByVertex[vertex] ??= firstEvent(v, g.violations[0]);
      }
    }
    if (
      (v.outcome === 'vetoed' || v.outcome === 'stopped' || v.outcome === 'consent-expired') &&
      !summary.firstVeto
    ) {
      summary.firstVeto = firstEvent(v, v.violations[0]);
    }
    if (options.recorder) pending.push(options.recorder.verdict(v, [...latestFrames.values()]));
  };
  const onCommand = (c: MotorCommand) => {
    if (c.setpoints.kind === 'stop') summary.commands.stop += 1;
    else summary.commands.motion += 1;
    if (options.recorder) pending.push(options.recorder.command(c));
  };
  const onTrap = (r: TrapResult) => {
    if (r.kind === 'signed') onCommand(r.command);
    onVerdict(r.verdict);
  };

  let nowMs = -1;
  let lastTickMs = -1;
  /** The live node's timers, stepped in recorded time up to `untilMs`. */
  const runTimers = (untilMs: number) => {
    if (lastTickMs < 0) lastTickMs = untilMs;
    while (lastTickMs + period <= untilMs) {
      if (!gate.activeMotion && gate.waitingConsents().length === 0) {
        lastTickMs = untilMs;
        break;
      }
      lastTickMs += period;
      const stopped = gate.monitor(lastTickMs);
      if (stopped) {
        onCommand(stopped.stop);
        onVerdict(stopped.verdict);
      }
      for (const r of gate.expireConsents(lastTickMs)) onTrap(r);
    }
  };

  /** One mapped ROS message or recorded edge input, handed to the gate at `nowMs`. */
  const feed = (input: OwnInput | ReturnType<RosMessageMapper['map']>) => {
    if (input.kind === 'skip') {
      skip(input.reason, input.detail);
    } else if (input.kind === 'telemetry') {
      const outcome = gate.ingestTelemetry(input.frame, nowMs);
      if (outcome.accepted) {
        summary.telemetry.accepted += 1;
        if (outcome.newlyIgnoredJoints) summary.telemetry.ignoredJoints.push(...outcome.newlyIgnoredJoints);
        latestFrames.set(input.frame.source, input.frame);
        measured.check(input.frame, nowMs);
      } else {
        const reason = (outcome.reason ?? 'refused').split(':')[0]!;
        summary.telemetry.rejected[reason] = (summary.telemetry.rejected[reason] ?? 0) + 1;
        summary.telemetry.examples[reason] ??= outcome.reason ?? reason;
      }
      if (outcome.stop) onCommand(outcome.stop);
      if (outcome.verdict) onVerdict(outcome.verdict);
    } else if (input.kind === 'intent') {
      summary.intents += 1;
      onTrap(gate.trapAndSign(input.intent, nowMs));
    } else {
      summary.consents += 1;
      onTrap(gate.submitConsent(input.envelope, nowMs));
    }
  };

  const warn = (w: string) => summary.warnings.push(w);
  const feeds = new SourceFeeds();
  const intentFeeds = new IntentFeeds(profile.topics?.ros2?.intent?.name);
  /** Plans of `topic` that feed a source become `unbound` (source-feeds.ts), also in the per-topic counts. */
  const unbind = (topic: string, why: string) => {
    for (const [key, plan] of plans) {
      if (key.split('\u0000')[0] !== topic || plan.kind !== 'bound') continue;
      plans.set(key, { kind: 'unbound', why });
      const count = topicCounts.get(key);
      if (count) count.boundTo = describePlan({ kind: 'unbound', why });
    }
  };
  /**
   * A telemetry binding only while its topic is the one that feeds its source, an intent binding only while its
   * topic is the one command stream judged (source-feeds.ts). Topics claim with their first decoded message
   * (`claimed`: topic and type keys already asked).
   */
  const claimed = new Set<string>();
  const fedOnce = (topic: string, type: string, binding: RosBinding): TopicPlan => {
    const target = binding.target;
    if (target.kind !== 'telemetry' && target.kind !== 'intent') return { kind: 'bound', binding };
    // A command stream a topics.ros2 role names is read, as live, whatever the role (source-feeds.ts).
    const named = profileRoleForTopic(profile, topic) !== undefined;
    if (target.kind === 'intent' && named) return { kind: 'bound', binding };
    const source = target.kind === 'telemetry' ? target.source : 'intent';
    const stream = target.kind === 'telemetry' ? feeds : intentFeeds;
    const claim = stream.claim(source, topic, named);
    if (!claim.ok) {
      if (claim.withdrawn !== undefined) unbind(claim.withdrawn, claim.reason);
      warn(`${topic} [${type}] is not read: ${claim.reason}`);
      return { kind: 'unbound', why: claim.reason };
    }
    if (claim.replaced !== undefined) {
      const why = stream.replacedReason(claim.replaced, source, topic);
      unbind(claim.replaced, why);
      warn(why);
    }
    return { kind: 'bound', binding };
  };
  const planFor = (topic: string, type: string): TopicPlan => {
    const key = `${topic}\u0000${type}`;
    let plan = plans.get(key);
    if (plan) return plan;
    const role = profileRoleForTopic(profile, topic);
    const unsupported = role === undefined ? unsupportedTopic(topic, type) : undefined;
    if (type.startsWith('(')) plan = { kind: 'untyped' };
    else if (type === OWN_INPUT_TYPE) plan = { kind: 'own-input' };
    else if (OWN_OUTPUT_TYPES.has(type) || topic === OWN_DIAGNOSTICS_TOPIC) plan = { kind: 'own-output' };
    else if (unsupported) plan = { kind: 'unsupported', unsupported };
    else {
      const binding = bindingForRecordedTopic(profile, topic, type, options.overrides);
      if ('unbound' in binding) {
        plan = { kind: 'unbound', why: binding.unbound };
        if (role !== undefined) {
          // The profile names this topic for a role: a source or intent stream that gets nothing from the recording.
          warn(
            `${topic} [${type}]: the profile's topics.ros2 role ${role} names this topic, but it is not read: ${binding.unbound}; the gates that need it fail closed (MISSING_DATA)`,
          );
        }
      } else plan = { kind: 'bound', binding };
    }
    plans.set(key, plan);
    return plan;
  };
  const wanted = (topic: string, type: string) => {
    const kind = planFor(topic, type).kind;
    return kind === 'own-input' || kind === 'bound';
  };

  const order = { reordered: 0, late: 0 };
  try {
    const items = readRecording(options.bagPath, warn, { wanted, logTimeOrder: order });
    const isOwnRecording = (first: RecordedItem) =>
      first.type === OWN_INPUT_TYPE ||
      OWN_OUTPUT_TYPES.has(first.type) ||
      first.topic === OWN_DIAGNOSTICS_TOPIC;
    for await (const item of inLogTimeOrder(items, order, REORDER_WINDOW_NS, isOwnRecording)) {
      const logMs = Number(item.logTimeNs / NS_PER_MS);
      if (logMs < nowMs) summary.logTimeBackwards += 1;
      nowMs = Math.max(nowMs, logMs);
      if (summary.firstMessageMs === null) {
        summary.firstMessageMs = nowMs;
        options.onFirstMessage?.(nowMs);
      }
      summary.lastMessageMs = nowMs;
      summary.messages.total += 1;
      runTimers(nowMs);
      const plan = planFor(item.topic, item.type);
      const key = `${item.topic}\u0000${item.type}`;
      let count = topicCounts.get(key);
      if (!count) {
        count = { topic: item.topic, type: item.type, messages: 0, boundTo: describePlan(plan) };
        topicCounts.set(key, count);
      }
      count.messages += 1;
      if (item.kind === 'problem') {
        skip(item.reason, item.detail);
        continue;
      }
      if (plan.kind === 'own-output') {
        summary.recordedOutputs += 1;
        continue;
      }
      if (plan.kind === 'unsupported') {
        skip('unsupported-type', unsupportedTopicLine(item.topic, item.type, plan.unsupported));
        continue;
      }
      if (plan.kind === 'unbound') {
        skip('unbound-topic', `${item.topic}: ${plan.why}`);
        continue;
      }
      if (item.kind === 'unread' || plan.kind === 'untyped') {
        // Not reached: a topic the replay feeds is decoded, and one without a type is a problem.
        skip('decode-failed', `${item.topic}: not decoded`);
        continue;
      }
      if (plan.kind === 'own-input') {
        feed(ownInput(item.message, profile.robotId));
        continue;
      }
      if (!claimed.has(key)) {
        // A topic claims its source with its first decoded message: one whose messages never decode feeds nothing.
        claimed.add(key);
        const settled = fedOnce(item.topic, item.type, plan.binding);
        if (settled.kind === 'unbound') {
          plans.set(key, settled);
          count.boundTo = describePlan(settled);
          skip('unbound-topic', `${item.topic}: ${settled.why}`);
          continue;
        }
      }
      feed(mapper.map(plan.binding, item.message, nowMs, item.type));
    }
    if (summary.messages.total > 0 && summary.recordedOutputs === summary.messages.total) {
      summary.error = outputsOnlyMessage(summary.recordedOutputs);
    }
  } catch (err) {
    summary.error = (err as Error).message;
  }
  summary.logTimeReordered = order.reordered;
  const firstMs = summary.firstMessageMs ?? summary.lastMessageMs;
  if (summary.lastMessageMs !== null && summary.lastMessageMs < WALL_CLOCK_FROM_MS) {
    warn(
      `the recording's log time starts at ${new Date(firstMs!).toISOString()}: a simulated clock (recorded with --use-sim-time) or a robot clock never set; the provenance documents are judged at that time, so PROVENANCE fails every intent (not yet valid): replay a recording made on wall-clock time`,
    );
  } else if (firstMs !== null && firstMs < WALL_CLOCK_FROM_MS) {
    // one bad timestamp (a negative or zero log time in a sqlite3 bag) started the replay's clock decades early
    warn(
      `the recording's log time starts at ${new Date(firstMs).toISOString()} but ends at ${new Date(summary.lastMessageMs!).toISOString()}: a message stamped before 2000 (a corrupt timestamp, or a clock set late) starts the replay there, and the provenance documents are judged at that first time, so PROVENANCE may fail every intent; check the recording's timestamps`,
    );
  }
  if (order.late > 0) {
    warn(
      `${order.late} messages were stored more than ${Number(REORDER_WINDOW_NS / NS_PER_MS) / 1000} s of log time after later ones: replayed at the latest time seen, not in log-time order as ros2 bag play would (logTimeBackwards); verdicts near them may differ`,
    );
  }
  // A topic claims its source with its first decoded message: one none of whose messages decoded fed nothing,
  // whatever its plan said (a profile's intent topic whose messages are of another type, say).
  for (const [key, count] of topicCounts) {
    const plan = plans.get(key);
    if (plan?.kind !== 'bound' || claimed.has(key) || count.messages === 0) continue;
    count.boundTo = `nothing: none of its ${count.messages} messages decoded`;
    warn(
      `${count.topic} [${count.type}]: none of its ${count.messages} messages decoded, so it fed nothing (see skipped: decode-failed); the gates that need it fail closed (MISSING_DATA)`,
    );
  }
  const recorded = summary.error === undefined ? await recordedCounts(options.bagPath) : undefined;
  if (recorded) {
    const byTopic = new Map<string, number>();
    for (const c of topicCounts.values()) byTopic.set(c.topic, (byTopic.get(c.topic) ?? 0) + c.messages);
    // an error, not a warning: exit 2, "could not be read to its end" — the summary of what was read still printed
    const missing = missingMessages(recorded, summary.messages.total, byTopic);
    if (missing !== undefined) summary.error = missing;
  }
  await Promise.all(pending);
  summary.durationMs =
    summary.firstMessageMs === null ? 0 : (summary.lastMessageMs ?? 0) - summary.firstMessageMs;
  summary.messages.byTopic = [...topicCounts.values()].sort((a, b) =>
    a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : 0,
  );
  const fedBy = new Map<string, string[]>();
  for (const [key, plan] of plans) {
    if (plan.kind === 'bound' && plan.binding.target.kind === 'telemetry') {
      const topics = fedBy.get(plan.binding.target.source) ?? [];
      topics.push(key.split('\u0000')[0]!);
      fedBy.set(plan.binding.target.source, topics);
    }
  }
  measured.finish(fedBy);
  summary.measured = measured.summary;
  if (summary.messages.total === 0 && summary.error === undefined) {
    summary.warnings.push('the recording holds no messages: nothing was judged');
  }
  if (options.recorder) summary.recordedTo = options.recorder.path;
  return summary;
}

/** What a topic fed, as the summary lists it per topic (TopicCount.boundTo). */
function describePlan(plan: TopicPlan): string {
  switch (plan.kind) {
    case 'own-input':
      return "the edge's recorded inputs";
    case 'own-output':
      return "the edge's recorded decisions (counted, not fed)";
    case 'unsupported':
      return `skipped: ${plan.unsupported.why}; ${plan.unsupported.todo}`;
    case 'unbound':
      return `unbound: ${plan.why}`;
    case 'untyped':
      return 'not read: the recording gives it no schema or type (see skipped)';
    case 'bound': {
      const target = plan.binding.target;
      return target.kind === 'telemetry'
        ? `telemetry:${target.source}`
        : target.kind === 'observed'
          ? `observed, not gated: ${target.why}`
          : target.kind;
    }
  }
}
