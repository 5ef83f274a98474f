import { type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { API_ERRORS, type ApiErrorCode } from '@selfie-mosaic/contract';
import type { FastifyInstance } from 'fastify';

/** Node's parser and timeout errors, by code, on the catalogue; any other unreadable request is invalid. */
const CLIENT_ERRORS: Record<string, ApiErrorCode> = {
  HPE_HEADER_OVERFLOW: 'headersTooLarge',
  ERR_HTTP_REQUEST_TIMEOUT: 'requestTimeout',
  HPE_INVALID_URL: 'badUrl',
};

type ClientError = Error & { code?: string };

/**
 * Answers what Node's HTTP parser refused before Fastify saw a request (headers too large, a request
 * line that is not HTTP, a request past its timeout) with the catalogue's status and message. Logged
 * at debug by code only: the error carries the raw request bytes, cookies included.
 */
export function clientErrorHandler(this: FastifyInstance, error: ClientError, socket: Socket): void {
  // The client went away: there is no one to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const code = CLIENT_ERRORS[error.code ?? ''] ?? 'invalidField';
  this.log.debug({ code: error.code }, 'unreadable request refused');
  // As Node does: answer only if no response has started on this connection (a timeout mid-upload).
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    const { status, message } = API_ERRORS[code];
    const body = JSON.stringify({ error: message, code });
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
