/** The small JSON requests and answers of the server's control endpoints (faults, grants). */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Their bodies are a few dozen bytes; anything far larger is refused before parsing. */
const MAX_BODY_BYTES = 4096;

/** The request's body as text; a RangeError past `MAX_BODY_BYTES`. */
export async function readBody(request: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of request) {
    body += String(chunk);
    if (body.length > MAX_BODY_BYTES) throw new RangeError('the body is too large');
  }
  return body;
}

export function reply(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}
