// A tiny node:http server on 127.0.0.1 for the SDK's unit tests: each test scripts the answers
// and reads back what the SDK sent (method, path, headers, body), without the real service.
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export type Handler = (req: Recorded, res: ServerResponse, n: number) => void | Promise<void>;

export interface FakeServer {
  url: string;
  requests: Recorded[];
  close(): Promise<void>;
}

export async function fakeServer(handler: Handler): Promise<FakeServer> {
  const requests: Recorded[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rec: Recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
      requests.push(rec);
      Promise.resolve(handler(rec, res, requests.length)).catch((err: unknown) => {
        res.statusCode = 599;
        res.end(String(err));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'req_test', ...headers });
  res.end(body === undefined ? '' : JSON.stringify(body));
}

export function apiError(res: ServerResponse, status: number, code: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): void {
  json(res, status, { error: { code, message: `${code} happened`, requestId: 'req_err', ...extra } }, headers);
}

export function job(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'job_1', type: 'matching', status: 'running', stage: 'scoring', progress: 0.5, createdAt: '2026-11-21T10:00:00.000Z',
    startedAt: null, finishedAt: null, resultId: null, error: null, ...over,
  };
}
