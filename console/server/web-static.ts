// The built front end, served from webRoot by @fastify/static as a single-page app: a file that
// exists is sent, any other GET outside /api gets index.html (the page's router takes it from
// there), and an unknown /api path is a JSON 404. @fastify/static (through `send`) refuses any
// path that would climb out of the root, in whatever encoding; a refusal is a 403, never a file.
// Without a build there is no index.html, and pages answer 503 saying how to make one.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { errorBody } from './api-error.js';

export const NOT_BUILT = 'The console front end is not built: run `npm run build`, then reload this page.\n';

export async function registerWeb(app: FastifyInstance, webRoot: string): Promise<void> {
  const root = resolve(webRoot);
  await app.register(fastifyStatic, {
    root,
    wildcard: true, // files are looked up per request, so a rebuild is served without a restart
    index: ['index.html'],
    dotfiles: 'ignore',
    redirect: false,
    suppressWarning: true, // a missing webRoot is answered with NOT_BUILT, not a startup warning
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const page = (request.method === 'GET' || request.method === 'HEAD') && !isApiPath(path);
    if (!page) return reply.code(404).send(errorBody('not_found', `no route ${request.method} ${path}`));
    if (!existsSync(join(root, 'index.html'))) return reply.code(503).type('text/plain; charset=utf-8').send(NOT_BUILT);
    return reply.header('cache-control', 'no-cache').sendFile('index.html', root);
  });
}

function isApiPath(path: string): boolean {
  // decoded, so that /%61pi/… is an API path here too (it is one to the router)
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // a malformed escape: judge the raw text
  }
  return /^\/+api(\/|$)/i.test(decoded);
}
