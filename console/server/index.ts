// The operator console's server half: createConsoleServer (the front end and the JSON API), and the
// access tokens the CLI makes, lists and revokes and the server checks.
export { createConsoleServer, type ConsoleServerOptions } from './server.js';
export {
  CONSOLE_ROLES,
  createToken,
  isConsoleRole,
  listTokens,
  revokeToken,
  verifyToken,
  verifyTokenAsync,
  type ConsoleRole,
  type TokenListing,
  type TokenOwner,
} from './tokens.js';
export { SESSION_COOKIE } from './sessions.js';
export type { ErrorBody, ErrorCode } from './api-error.js';
export type { RunReportRead, RunReportReader } from './run-reports.js';
