import type { Command } from '@pentagate/protocol';
import { apikeyIssueCommand, apikeyListCommand, apikeyRevokeCommand } from './cli/apikey-commands.js';
import { auditExportCommand } from './cli/audit-commands.js';
import { keysListCommand, keysRetireCommand } from './cli/key-commands.js';
import {
  operatorEnrollCommand,
  operatorListCommand,
  operatorRetireCommand,
} from './cli/operator-commands.js';
import { robotAddCommand, robotListCommand, robotRetireCommand } from './cli/robot-commands.js';
import { serveCommand } from './cli/serve-command.js';
import { tenantCreateCommand } from './cli/tenant-commands.js';

/** The `pentagate cloud …` subcommands. */
export const commands: Command[] = [
  serveCommand,
  tenantCreateCommand,
  apikeyIssueCommand,
  apikeyRevokeCommand,
  apikeyListCommand,
  auditExportCommand,
  keysListCommand,
  keysRetireCommand,
  robotAddCommand,
  robotListCommand,
  robotRetireCommand,
  operatorEnrollCommand,
  operatorRetireCommand,
  operatorListCommand,
];
