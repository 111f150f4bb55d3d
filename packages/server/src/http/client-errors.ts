// Requests that Node's HTTP parser refuses before fastify sees them (both Content-Length and
// Transfer-Encoding, a bad header line, headers too large, a request that did not arrive in time)
// are answered with the error body of decisions §2 and a request id, like every other error;
// they got fastify's own body before (issue 32, finding 12). The connection is closed after.
import type { Socket } from 'node:net';
import { ApiError } from '../errors.ts';
import { errorBody } from './errors.ts';
import { newId } from '../ids.ts';

export function clientErrorHandler(err: Error & { code?: string }, socket: Socket): void {
  // A reset connection has nobody to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const apiError = err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
    ? new ApiError('REQUEST_TIMEOUT', 'The request did not arrive in time.')
    : err.code === 'HPE_HEADER_OVERFLOW'
      ? new ApiError('HEADERS_TOO_LARGE', 'The request headers are too large.')
      : new ApiError('VALIDATION_FAILED', 'The HTTP request is malformed.', { details: [{ path: '/', message: `the HTTP request could not be parsed (${err.code ?? 'parse error'})` }] });
  const requestId = newId('req');
  const body = JSON.stringify(errorBody(apiError, requestId));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${apiError.status} ${reason(apiError.status)}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

function reason(status: number): string {
  return { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' }[status] ?? 'Error';
}
