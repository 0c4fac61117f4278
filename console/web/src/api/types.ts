// The console API's answers as the browser reads them. These mirror the server's JSON (and the
// repository types it serializes) without importing them: the front end is type-checked with DOM
// libraries only, and a field the server adds later is simply not read. One module per area;
// pages import from here.
export type * from './skill-types';
export type * from './campaign-types';
export type * from './episode-types';
export type * from './overview-types';
