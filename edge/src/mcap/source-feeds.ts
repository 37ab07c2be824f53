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

export class SourceFeeds {
  readonly #feeders = new Map<string, Feeder>();

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
        reason: `${topic} would feed source ${source}, which ${feeder.topic}, the topic the profile's topics.ros2 names for it, feeds: not read (the live edge would not read it either); give it a source of its own in the profile and name it in topics.ros2 to have it judged`,
      };
    }
    const withdrawn = feeder.contested ? undefined : feeder.topic;
    feeder.contested = true;
    return {
      ok: false,
      feeder: feeder.topic,
      reason: `${topic} and ${feeder.topic} would both feed source ${source}: a source keeps one latest frame, so two topics on it hide each other's readings (a person one sensor sees is dropped at the other's next frame); neither is read from here on, so the gates that need ${source} fail closed (STALE_DATA, MISSING_DATA): name the topic that feeds it in topics.ros2 and give any other sensor a source of its own`,
      ...(withdrawn !== undefined ? { withdrawn } : {}),
    };
  }
}

/** Why `replaced` is no longer read: the profile's topic for its source came. */
export function replacedFeederReason(replaced: string, source: string, named: string): string {
  return `${replaced} fed source ${source} until ${named}, the topic the profile's topics.ros2 names for it, came: from then on only ${named} feeds it`;
}
