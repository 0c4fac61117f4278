// The operator console's API contract: every JSON answer the server gives and every request body
// it takes, as types and nothing else. The server's routes are typed with these (console/server),
// and the browser reads its answers as these (console/web), so a field renamed on one side is a
// type error on the other. The files import nothing but each other: the web app type-checks them
// with DOM libraries only, the server with Node's.
export type * from './errors.js';
export type * from './session.js';
export type * from './evidence.js';
export type * from './skills.js';
export type * from './campaign-report.js';
export type * from './campaign-files.js';
export type * from './campaigns.js';
export type * from './episode.js';
export type * from './overview.js';
export type * from './live.js';
