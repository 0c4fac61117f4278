// Security headers on every answer, by @fastify/helmet. The Content-Security-Policy is exactly the
// console's needs: its own scripts only, never inline; inline styles allowed because the chart
// library writes style attributes; images from itself and data:/blob: (charts, canvas exports);
// no plugins, no <base>, never framed. HSTS is off: the console is plain HTTP on loopback, and a
// browser remembering HSTS for "localhost" would break every other local server.
import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

export const CSP_DIRECTIVES = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'frame-ancestors': ["'none'"],
} as const;

export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(fastifyHelmet, {
    // useDefaults off: helmet's defaults add upgrade-insecure-requests, which breaks plain HTTP
    contentSecurityPolicy: { useDefaults: false, directives: mutable(CSP_DIRECTIVES) },
    hsts: false,
  });
}

function mutable(d: typeof CSP_DIRECTIVES): Record<string, string[]> {
  return Object.fromEntries(Object.entries(d).map(([k, v]) => [k, [...v]]));
}
