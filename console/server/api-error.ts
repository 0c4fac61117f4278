// Every error the API answers has one shape, `{ error: { code, message } }`, whoever raised it: our
// handlers (ApiError), fastify itself (bad JSON, a body too large, a wrong content type) or a plugin
// (@fastify/static refusing a path). Unexpected errors are logged and answered as `internal`
// without their details; the skill library's input errors are written for people, so they pass,
// as does a file of the runs folder the console refused to read (it names the file, not its content).
// The shape is the API contract's ErrorBody.
import type { FastifyError, FastifyInstance } from 'fastify';
import { SkillInputError } from '../../skills/errors.js';
import type { ErrorBody, ErrorCode } from '../contract/index.js';
import { RefusedRunFileError } from './run-file-read.js';

export type { ErrorBody, ErrorCode } from '../contract/index.js';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new ApiError(400, 'bad_request', message);
export const unauthorized = (message: string) => new ApiError(401, 'unauthorized', message);
export const forbidden = (message: string) => new ApiError(403, 'forbidden', message);
export const notFound = (message: string) => new ApiError(404, 'not_found', message);
export const conflict = (message: string) => new ApiError(409, 'conflict', message);
export const rateLimited = (message: string, retryAfterS: number) =>
  new ApiError(429, 'rate_limited', message, { 'retry-after': String(Math.max(1, retryAfterS)) });

export function errorBody(code: ErrorCode, message: string): ErrorBody {
  return { error: { code, message } };
}

const CODE_BY_STATUS: Readonly<Record<number, ErrorCode>> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  503: 'unavailable',
};

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | ApiError, request, reply) => {
    if (err instanceof ApiError) return reply.code(err.status).headers(err.headers).send(errorBody(err.code, err.message));
    const status = 'statusCode' in err && typeof err.statusCode === 'number' ? err.statusCode : 500;
    if (status >= 400 && status < 500) return reply.code(status).send(errorBody(CODE_BY_STATUS[status] ?? 'bad_request', err.message));
    request.log.error(err);
    // the store's own input errors (a damaged or modified store) say what to do; others stay inside
    const told = err instanceof SkillInputError || err instanceof RefusedRunFileError;
    const message = told ? err.message : 'internal error (see the server log)';
    return reply.code(500).send(errorBody('internal', message));
  });
}
