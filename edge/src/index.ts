/**
 * @pentagate/edge: the edge node that sits next to a robot's actuators (ARCHITECTURE.md §3–4).
 * Exports the robot-profile loader, the EdgeGate (trapAndSign, the five physical gates, signed motor commands,
 * protective stops) and its building blocks, the runtime (broker, MQTT, node, outbox, observability) and the
 * ROS 2, MCAP and serial transports. The CLI subcommands are the `./commands` entry point.
 */
export * from './profile/load-profile.js';
export * from './profile/cross-checks.js';
export * from './profile/compiled-profile.js';
export * from './kinematics/forward-kinematics.js';
export * from './kinematics/arm-skeleton.js';
export * from './kinematics/joint-path-sweep.js';
export * from './kinematics/remaining-path-sweep.js';
export * from './kinematics/base-path-sweep.js';
export * from './geometry/keep-out-zone.js';
export * from './geometry/zone-depth.js';
export * from './kinematics/zone-depth-ratchet.js';
export * from './telemetry/telemetry-store.js';
export * from './telemetry/source-sequence.js';
export * from './gates/gate-context.js';
export * from './gates/motion-plan.js';
export * from './gates/motion-energy.js';
export * from './gates/separation-distance.js';
export * from './gates/provenance-registry.js';
export * from './gates/invariant.js';
export * from './gates/economy.js';
export * from './gates/risk.js';
export * from './gates/provenance.js';
export * from './gates/consent.js';
export * from './gates/run-gate.js';
export * from './trap/sequence-store.js';
export * from './trap/spent-consent-nonces.js';
export * from './trap/trap-result.js';
export * from './trap/verdicts.js';
export * from './trap/edge-gate.js';
export * from './crypto/node-hmac.js';
export * from './kinematics/peak-cartesian-speed.js';

// The runtime (embedded broker, MQTT transport, EdgeNode, audit outbox, observability).
export * from './runtime.js';

// Transports beside MQTT: their shared error and inbound typing, ROS 2 (rclnodejs is loaded only when a
// transport starts), rosbag2 MCAP recording and replay, serial lines (NDJSON / COBS). The ROS field readers
// (ros/ros-fields.ts) are internal to the mapping and stay unexported.
export * from './transport/transport-error.js';
export * from './transport/typed-inbound.js';
export * from './ros/rclnodejs-surface.js';
export * from './ros/rclnodejs-loader.js';
export * from './ros/ros-message-definitions.js';
export * from './ros/ros-bindings.js';
export * from './ros/ros-role-overrides.js';
export * from './ros/scan-proximity.js';
export * from './ros/message-mapping.js';
export * from './ros/ros2-transport.js';
export * from './mcap/mcap-file-sink.js';
export * from './mcap/rosbag-reader.js';
export * from './mcap/rosbag-writer.js';
export * from './mcap/verdict-recorder.js';
export * from './mcap/mcap-recording-transport.js';
export * from './mcap/replay-summary.js';
export * from './mcap/replay.js';
export * from './serial/cobs.js';
export * from './serial/serial-framing.js';
export * from './serial/serial-transport.js';
