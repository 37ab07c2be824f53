/**
 * The edge runtime: embedded broker, MQTT transport, EdgeNode, audit outbox and observability. Re-exported
 * by `./commands` (the package's second entry point) until the package index re-exports it too.
 */
export * from './broker/embedded-broker.js';
export * from './broker/broker-users.js';
export * from './broker/password-hash.js';
export * from './broker/topic-rules.js';
export * from './mqtt/mqtt-transport.js';
export * from './transport/robot-transport.js';
export * from './node/edge-gate-port.js';
export * from './node/edge-node.js';
export * from './node/node-verdicts.js';
export * from './node/runtime-error.js';
export * from './node/start-edge-node.js';
export * from './observability/edge-metrics.js';
export * from './observability/logger.js';
export * from './observability/observability-server.js';
export * from './outbox/audit-outbox.js';
export * from './outbox/outbox-record.js';
export * from './uplink/index.js';
