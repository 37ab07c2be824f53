export type { CliIo, Command, OptionSpec, ParsedCommandLine } from './command.js';
export { renderCommandHelp, renderGroupHelp, renderTopHelp } from './help.js';
export {
  type CliProgram,
  ExitCode,
  processIo,
  requireOption,
  resolveCommandLine,
  runCli,
} from './run-cli.js';
export {
  CLOSED_OUTPUT,
  onStopRequest,
  type StopListener,
  stopForClosedOutput,
  untilStopRequest,
} from './stop-request.js';
export { cannotRead, describeFetchFailure, describeUserError, oneLine } from './user-error.js';
export { NO_REDIRECT, redirectRefusal } from './unfollowed-redirect.js';
