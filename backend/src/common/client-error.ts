import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorBody } from './http-exception.filter.js';

/**
 * What Node's HTTP parser refuses before the app sees a request (headers over 16 KB, malformed
 * request lines or headers): by default Node answers with a bare status and no body. Here the
 * answer is the API's usual `{error, code}`, so every client, whatever it sent, can read why.
 */
function describe(code: string | undefined): { status: number; body: ErrorBody } {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return { status: 431, body: { error: 'The request headers are too large.', code: 'HEADERS_TOO_LARGE' } };
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { status: 408, body: { error: 'The request took too long to arrive.', code: 'REQUEST_TIMEOUT' } };
  }
  return { status: 400, body: { error: 'The request is not valid HTTP.', code: 'BAD_REQUEST' } };
}

export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A reset connection has nobody to answer; a response already under way cannot be replaced.
    const busy = (socket as Duplex & { _httpMessage?: unknown })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || busy) {
      socket.destroy();
      return;
    }
    const { status, body } = describe(error.code);
    const json = JSON.stringify(body);
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`,
    );
  });
}
