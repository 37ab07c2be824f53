/**
 * Why a ROS message was not turned into a frame, an intent or a consent: one vocabulary for the live ROS 2
 * transport and the replay, which counts skips by these reasons and shows an example of each.
 */
export type MappingSkipReason =
  | 'wrong-type'
  | 'missing-field'
  | 'non-finite'
  | 'malformed'
  | 'no-valid-return'
  | 'blind-zone'
  | 'unstamped'
  | 'stale-stamp'
  | 'future-stamp'
  | 'foreign-clock'
  | 'stamp-backwards'
  | 'wrong-frame'
  | 'not-gated';

export const MAPPING_SKIP_REASONS: readonly MappingSkipReason[] = [
  'wrong-type',
  'missing-field',
  'non-finite',
  'malformed',
  'no-valid-return',
  'blind-zone',
  'unstamped',
  'stale-stamp',
  'future-stamp',
  'foreign-clock',
  'stamp-backwards',
  'wrong-frame',
  'not-gated',
];

/** Thrown by the per-family mappers; RosMessageMapper.map turns it into a counted skip. */
export class MappingSkip extends Error {
  constructor(
    readonly reason: MappingSkipReason,
    message: string,
  ) {
    super(message);
  }
}
