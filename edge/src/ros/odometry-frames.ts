/**
 * Which `header.frame_id`s are odometry frames, not the map frame a pose source's zones are in (profile.ts: "a
 * mobile base's zones and pose are in the map frame"): REP 105's `odom` (optionally under a namespace,
 * `robot1/odom`) and the odometry frames robots name otherwise — RealSense T265's `odom_frame` and
 * `camera_odom_frame`, PR2's `odom_combined`, KISS-ICP's `odom_lidar`: a name with `odom` (or `odometry`) as a
 * component and no `map` component (`odom_combined_map` is left to its owner). Odometry drifts from the map
 * without bound, so a zone check against it can put the robot outside a zone it is in. The mapping refuses such a
 * pose (message-mapping.ts) and `edge profile init` does not offer its topic as the pose source.
 */
export function odometryFrameKind(frameId: string): string | undefined {
  const parts = frameId.split(/[/_.-]/);
  if (frameId === 'odom' || frameId.endsWith('/odom')) return 'the odom frame (REP 105)';
  const named = parts.some((p) => p === 'odom' || p === 'odometry') && !parts.includes('map');
  return named ? "an odometry frame (by its name, like REP 105's odom)" : undefined;
}
