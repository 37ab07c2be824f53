/**
 * The seq rule of one telemetry source: how a frame's `seq` is judged against the frames before it, so that no
 * frame can lock a source out and a discontinuity never leaves stale or foreign data in charge.
 *
 * - Anchored (the normal state): a frame is taken when `anchor < seq ≤ anchor + SEQ_MAX_GAP`. An exact
 *   duplicate of the latest frame (same seq, same canonical bytes: an MQTT QoS 1 redelivery) is refused and
 *   changes nothing.
 * - Any other seq — back to or below the anchor (a sensor that rebooted, a replay, a second publisher), the same
 *   seq with other content, or a jump past `anchor + SEQ_MAX_GAP` (a forged "very high seq") — is a
 *   discontinuity: the source's latest frame is withdrawn at once, so the gates read the source as stale and a
 *   running motion is stopped (fail closed), and the source starts re-synchronising on that frame.
 * - Re-synchronising: the source is taken again once REANCHOR_FRAMES consecutive frames form one consistent
 *   sequence (each seq above the previous one, by at most SEQ_MAX_GAP) whose arrivals span the re-anchor span
 *   (below); the last of them becomes the anchor and the latest frame. A frame that breaks the run starts a new
 *   run. Two publishers interleaving on one source therefore keep it stale (they never form a run), and a
 *   restarted sensor is back after REANCHOR_FRAMES frames and that span, without restarting the edge.
 * - The re-anchor span: 1.5 × the longest of the source's last REANCHOR_HISTORY arrival intervals before the
 *   discontinuity (at most its maxAgeMs; maxAgeMs itself while fewer than two are known). A burst of frames
 *   sent back to back formed a run before the real sensor's next frame arrived to break it: three forged
 *   "nobody there" frames in one burst re-anchored a proximity source and a move was signed beside a person
 *   (outside review). A run that spans longer than the sensor's own period has had the live sensor's next
 *   frame arrive inside it, and a publisher that cannot see the real seqs cannot make that frame continue its
 *   run. One that can read and predict them is stopped only by frame authentication (`authenticated` sources,
 *   sensor-keys.ts).
 * - The first frame a source ever sends anchors it at once (there is nothing to be inconsistent with).
 *
 * Why a run of frames rather than a boot id: a frame can claim any boot id as easily as any seq, so neither
 * proves a restart; what a single forged frame cannot do is withdraw trust in the real sensor for longer than
 * the real sensor needs to send REANCHOR_FRAMES frames, and it can never make a source read fresher than it is
 * (the same reasoning as the sequence-number window of RFC 4303 §3.4.3, with the window re-established by
 * consecutive traffic rather than by a key exchange). Authenticity of the frames themselves is a separate rule
 * (the broker's publish rules).
 */

/** Largest seq step accepted between consecutive frames (frames lost in between are fine up to this many). */
export const SEQ_MAX_GAP = 1000;

/** Consecutive consistent frames a source needs after a discontinuity before it is trusted again. */
export const REANCHOR_FRAMES = 3;

/** Arrival intervals of taken frames kept to judge the source's period from. */
export const REANCHOR_HISTORY = 8;

/** The re-anchor span as a multiple of the longest recent interval (room for jitter). */
const SPAN_PER_INTERVAL = 1.5;

export type SeqVerdict =
  /** Take the frame as the source's latest. */
  | { kind: 'take'; reanchored: boolean }
  /** A redelivered copy of the latest frame: refuse it, change nothing. */
  | { kind: 'duplicate'; detail: string }
  /** Refuse the frame; the source is (now) re-synchronising and reads as stale. `withdrawn`: it just started. */
  | { kind: 'resync'; withdrawn: boolean; detail: string; framesNeeded: number };

interface Run {
  lastSeq: number;
  frames: number;
  /** Arrival of the run's first frame, ms. */
  firstArrivalMs: number;
}

export class SourceSequence {
  readonly #maxAgeMs: number;
  #anchor: number | undefined;
  #run: Run | undefined;
  /** Arrival of the last frame taken, and the intervals between the last REANCHOR_HISTORY taken frames, ms. */
  #lastTakenMs: number | undefined;
  readonly #intervalsMs: number[] = [];

  /** `maxAgeMs`: the source's; the longest re-anchor span. */
  constructor(maxAgeMs: number) {
    this.#maxAgeMs = maxAgeMs;
  }

  /** How long a run's arrivals must span before it re-anchors, ms (see the module comment). */
  get reanchorSpanMs(): number {
    if (this.#intervalsMs.length < 2) return this.#maxAgeMs;
    return Math.min(this.#maxAgeMs, Math.ceil(SPAN_PER_INTERVAL * Math.max(...this.#intervalsMs)));
  }

  #taken(arrivalMs: number): void {
    if (this.#lastTakenMs !== undefined && arrivalMs >= this.#lastTakenMs) {
      this.#intervalsMs.push(arrivalMs - this.#lastTakenMs);
      if (this.#intervalsMs.length > REANCHOR_HISTORY) this.#intervalsMs.shift();
    }
    this.#lastTakenMs = arrivalMs;
  }

  /** True while the source waits for a consistent run of frames (its latest frame is withheld). */
  get resynchronising(): boolean {
    return this.#run !== undefined;
  }

  /** Frames still needed before the source is trusted again (0 when anchored; at least 1 while the run is short of its span). */
  get framesNeeded(): number {
    return this.#run ? Math.max(1, REANCHOR_FRAMES - this.#run.frames) : 0;
  }

  /** How much longer, at `nowMs`, the current run must go on before it can re-anchor, ms (0 when anchored). */
  spanLeftMs(nowMs: number): number {
    return this.#run ? Math.max(0, this.reanchorSpanMs - (nowMs - this.#run.firstArrivalMs)) : 0;
  }

  /**
   * Judges `seq`, arrived at `arrivalMs`. `sameAsLatest` says whether the frame's canonical bytes equal the
   * stored latest frame's (only asked when `seq` equals the anchor). The verdict is already applied to the state
   * when returned.
   */
  judge(source: string, seq: number, arrivalMs: number, sameAsLatest: () => boolean): SeqVerdict {
    const anchor = this.#anchor;
    if (this.#run === undefined) {
      if (anchor === undefined || (seq > anchor && seq - anchor <= SEQ_MAX_GAP)) {
        this.#anchor = seq;
        this.#taken(arrivalMs);
        return { kind: 'take', reanchored: false };
      }
      if (seq === anchor && sameAsLatest()) {
        return { kind: 'duplicate', detail: `${source}: seq ${seq} is a copy of the latest frame` };
      }
      this.#anchor = undefined;
      this.#run = { lastSeq: seq, frames: 1, firstArrivalMs: arrivalMs };
      const what =
        seq > anchor
          ? `seq ${seq} jumps more than ${SEQ_MAX_GAP} past ${anchor}`
          : seq === anchor
            ? `seq ${seq} repeats the latest seq with other content`
            : `seq ${seq} is not greater than ${anchor} (a restart, a replay or a second publisher)`;
      return {
        kind: 'resync',
        withdrawn: true,
        framesNeeded: REANCHOR_FRAMES - 1,
        detail: `${source}: ${what}; the source is stale until ${REANCHOR_FRAMES} consecutive frames agree over ${this.reanchorSpanMs} ms`,
      };
    }
    const run = this.#run;
    if (seq > run.lastSeq && seq - run.lastSeq <= SEQ_MAX_GAP) {
      run.lastSeq = seq;
      run.frames++;
    } else {
      this.#run = { lastSeq: seq, frames: 1, firstArrivalMs: arrivalMs };
    }
    const waitMs = this.spanLeftMs(arrivalMs);
    if (this.#run.frames >= REANCHOR_FRAMES && waitMs === 0) {
      this.#run = undefined;
      this.#anchor = seq;
      // the run's own intervals are not the sensor's period: it starts anew from the re-anchoring frame
      this.#lastTakenMs = arrivalMs;
      return { kind: 'take', reanchored: true };
    }
    const needed = this.framesNeeded;
    return {
      kind: 'resync',
      withdrawn: false,
      framesNeeded: needed,
      detail:
        `${source}: re-synchronising at seq ${seq}, ${needed} more consecutive frame(s) needed` +
        (waitMs > 0 ? `, over ${waitMs} ms more` : ''),
    };
  }
}
