/**
 * One recorded topic per telemetry source on replay. The gates keep the latest frame of each source
 * (TelemetryStore), so two topics feeding one source replace each other's frames: a base's front and rear
 * scanners both bound to its only proximity source, and the person the rear one sees is forgotten at the front
 * one's next scan — an intent between the two is judged, and signed, without that person. The live transport
 * subscribes to the profile's topics.ros2 roles only, one topic each; replay also binds topics the profile does
 * not name (by their last name segment, or to the only source of their kind), which could give a source several.
 *
 * So a source is fed by the topic the profile names for it when the recording has it (another topic is not read,
 * as the live edge would not read it). Without it, two topics of equal standing leave it in doubt which one is
 * the source: neither is read from then on, and the gates that need the source fail closed.
 *
 * Intents follow the same rule (`IntentFeeds`): the live edge takes intents from the one topic its `intent` role
 * names, and a recording may hold other command streams — another robot's `/robot2/cmd_vel` in a multi-robot bag,
 * a teleop or a planner's raw output beside the smoothed one. Judged as this robot's, they were signed on its
 * telemetry for motions it never made.
 */

export type SourceClaim =
  /** `topic` feeds the source; `replaced` is a topic that fed it until the profile's named topic came. */
  | { ok: true; replaced?: string }
  /**
   * `topic` is not read; `feeder` is the topic the source was bound to. `withdrawn` is set when that topic is
   * not read from now on either (the source is in doubt).
   */
  | { ok: false; feeder: string; reason: string; withdrawn?: string };

interface Feeder {
  topic: string;
  named: boolean;
  /** Two topics of equal standing claimed the source: neither feeds it. */
  contested: boolean;
}

/** Why a topic is not read, for a telemetry source or for the intent stream. */
interface FeedReasons {
  notNamed(topic: string, key: string, feeder: string): string;
  contested(topic: string, key: string, feeder: string): string;
  /** `replaced` is no longer read: `named`, the profile's topic, came. */
  replaced(replaced: string, key: string, named: string): string;
}

const SOURCE_REASONS: FeedReasons = {
  replaced: (replaced, source, named) =>
    `${replaced} fed source ${source} until ${named}, the topic the profile's topics.ros2 names for it, came: from then on only ${named} feeds it`,
  notNamed: (topic, source, feeder) =>
    `${topic} would feed source ${source}, which ${feeder}, the topic the profile's topics.ros2 names for it, feeds: not read (the live edge would not read it either); give it a source of its own in the profile and name it in topics.ros2 to have it judged`,
  contested: (topic, source, feeder) =>
    `${topic} and ${feeder} would both feed source ${source}: a source keeps one latest frame, so two topics on it hide each other's readings (a person one sensor sees is dropped at the other's next frame); neither is read from here on, so the gates that need ${source} fail closed (STALE_DATA, MISSING_DATA): name the topic that feeds it in topics.ros2 and give any other sensor a source of its own`,
};

const INTENT_REASONS: FeedReasons = {
  replaced: (replaced, _key, named) =>
    `${replaced} was judged as this robot's intents until ${named}, the topic the profile's topics.ros2 names for intents, came: from then on only ${named} is`,
  notNamed: (topic, _key, feeder) =>
    `${topic} carries commands, but the profile's topics.ros2 names ${feeder} for this robot's intents: not judged (the live edge reads intents from that topic only; this may be another robot's or another node's command stream); if it is this robot's, name it in topics.ros2 (role intent)`,
  contested: (topic, _key, feeder) =>
    `${topic} and ${feeder} both carry intents and the profile's topics.ros2 names neither: which one commands this robot is in doubt (another robot's cmd_vel in a multi-robot bag, a planner's output beside a teleop), so neither is judged from here on: name the robot's intent topic in topics.ros2 (role intent)`,
};

export class SourceFeeds {
  readonly #feeders = new Map<string, Feeder>();
  readonly #reasons: FeedReasons;

  constructor(reasons: FeedReasons = SOURCE_REASONS) {
    this.#reasons = reasons;
  }

  /** Why `replaced`, which fed `source`, is no longer read: `named`, the profile's topic for it, came. */
  replacedReason(replaced: string, source: string, named: string): string {
    return this.#reasons.replaced(replaced, source, named);
  }

  /** Claims `source` for `topic`; `named` when the profile's topics.ros2 names `topic`. */
  claim(source: string, topic: string, named: boolean): SourceClaim {
    const feeder = this.#feeders.get(source);
    if (feeder === undefined || (feeder.topic === topic && !feeder.contested)) {
      this.#feeders.set(source, { topic, named, contested: false });
      return { ok: true };
    }
    if (named && !feeder.named) {
      this.#feeders.set(source, { topic, named, contested: false });
      return feeder.contested ? { ok: true } : { ok: true, replaced: feeder.topic };
    }
    if (feeder.named && !named) {
      return {
        ok: false,
        feeder: feeder.topic,
        reason: this.#reasons.notNamed(topic, source, feeder.topic),
      };
    }
    const withdrawn = feeder.contested ? undefined : feeder.topic;
    feeder.contested = true;
    return {
      ok: false,
      feeder: feeder.topic,
      reason: this.#reasons.contested(topic, source, feeder.topic),
      ...(withdrawn !== undefined ? { withdrawn } : {}),
    };
  }
}

/**
 * The command streams judged as this robot's intents, for topics no topics.ros2 role names (a named one is always
 * read, as live). When the profile names an intent topic, no other is read, whether or not the named one is in the
 * recording: a robot that was never commanded is not judged on another robot's commands. When it names none, the
 * first command stream is read, and a second leaves it in doubt (neither from then on).
 */
export class IntentFeeds extends SourceFeeds {
  constructor(namedIntentTopic: string | undefined) {
    super(INTENT_REASONS);
    if (namedIntentTopic !== undefined) {
      this.claim(
        'intent',
        namedIntentTopic.startsWith('/') ? namedIntentTopic : `/${namedIntentTopic}`,
        true,
      );
    }
  }
}
