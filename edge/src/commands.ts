import type { Command } from '@pentagate/protocol';
import { brokerAclCommand } from './cli/broker-acl-command.js';
import { calibSignCommand } from './cli/calib-sign-command.js';
import { consentGrantCommand } from './cli/consent-grant-command.js';
import { consentPendingCommand } from './cli/consent-pending-command.js';
import { edgeRunCommand } from './cli/edge-run-command.js';
import { firmwareSignCommand } from './cli/firmware-sign-command.js';
import { hashPasswordCommand } from './cli/hash-password-command.js';
import { profileInitCommand } from './cli/profile-init-command.js';
import { edgeReplayCommand } from './cli/replay-command.js';
import { sensorSignCommand } from './cli/sensor-sign-command.js';
import { edgeCheckCommand } from './profile/check-command.js';
import { edgeShipCommand } from './uplink/ship-command.js';

/** The `pentagate` subcommands this package contributes. */
export const commands: Command[] = [
  edgeRunCommand,
  edgeCheckCommand,
  edgeReplayCommand,
  profileInitCommand,
  hashPasswordCommand,
  brokerAclCommand,
  firmwareSignCommand,
  calibSignCommand,
  consentGrantCommand,
  consentPendingCommand,
  edgeShipCommand,
  sensorSignCommand,
];

// The runtime API rides on this entry point until the package index re-exports ./runtime.js.
export * from './runtime.js';
