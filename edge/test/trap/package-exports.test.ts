/** The package index is the one import a deployment needs: gate, runtime and every transport. */
import * as edge from '@pentagate/edge';
import * as commandsEntry from '@pentagate/edge/commands';
import t from 'tap';

t.test(
  'the package index exports the gate, the runtime and the ROS 2, MCAP and serial transports',
  async (t) => {
    for (const name of [
      'EdgeGate',
      'FileSequenceStore',
      'startEdgeNode',
      'EdgeNode',
      'startEmbeddedBroker',
      'MqttTransport',
      'AuditOutbox',
      'EdgeMetrics',
      'Ros2Transport',
      'RosMessageMapper',
      'rosBindingsFromProfile',
      'loadRclnodejs',
      'replayRecording',
      'McapRecordingTransport',
      'SerialTransport',
      'cobsEncode',
      'cobsDecode',
      'TransportError',
      'TypedInbound',
    ] as const) {
      t.type((edge as Record<string, unknown>)[name], 'function', `${name} is exported`);
    }
    // One module graph: the runtime reached through ./commands is the same code, not a second copy.
    t.equal(edge.startEdgeNode, commandsEntry.startEdgeNode);
    t.equal(edge.EdgeNode, commandsEntry.EdgeNode);
  },
);
