// The one shape of every error the console API answers, whoever raised it (a handler, fastify, a
// plugin): `{ error: { code, message } }`. Part of the API contract (index.ts): no imports.

export type ErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'internal'
  | 'unavailable';

export interface ErrorBody {
  readonly error: { readonly code: ErrorCode; readonly message: string };
}
