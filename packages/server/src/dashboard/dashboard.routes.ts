// The dashboard (decisions §12): static files at `/` and `/assets/*`, built into
// packages/dashboard/dist by `npm install` (packages/dashboard/src/build.ts). No key, no rate
// limit, like every route outside /v1; the dashboard itself calls /v1 with the user's key.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.ts';

const DIST = fileURLToPath(new URL('../../../dashboard/dist', import.meta.url));
const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
};
const ASSET = /^[a-z0-9-]+\.(js|css|svg)$/;
// The app loads only its own files and talks only to this origin; media it plays are local blobs.
const CSP = "default-src 'self'; img-src 'self' data: blob:; media-src 'self' blob:; style-src 'self' 'unsafe-inline'; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

async function sendFile(req: FastifyRequest, reply: FastifyReply, name: string, dir: string): Promise<FastifyReply> {
  const ext = name.split('.').pop() ?? '';
  const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
  let body: Buffer;
  try {
    body = await readFile(join(dir, gzip ? `${name}.gz` : name));
  } catch {
    if (name === 'index.html') {
      throw new ApiError('UNAVAILABLE', 'The dashboard is not built: run `npm install` (or `npm run build`) in the repository.');
    }
    throw new ApiError('NOT_FOUND', `No dashboard asset ${name}.`);
  }
  if (gzip) reply.header('content-encoding', 'gzip');
  return reply
    .header('vary', 'accept-encoding')
    .header('cache-control', 'no-cache')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('content-security-policy', CSP)
    .type(TYPES[ext] ?? 'application/octet-stream')
    .send(body);
}

export function registerDashboardRoutes(app: FastifyInstance, dir = DIST): void {
  app.get('/', (req, reply) => sendFile(req, reply, 'index.html', dir));
  // Browsers ask for /favicon.ico whatever the page links (a 404 in the console on every load):
  // the same icon the page names.
  app.get('/favicon.ico', (req, reply) => sendFile(req, reply, 'favicon.svg', dir));
  app.get<{ Params: { name: string } }>('/assets/:name', (req, reply) => {
    if (!ASSET.test(req.params.name)) throw new ApiError('NOT_FOUND', `No dashboard asset ${req.params.name}.`);
    return sendFile(req, reply, req.params.name, dir);
  });
}
