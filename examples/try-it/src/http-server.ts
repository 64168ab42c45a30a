/**
 * The demo's web server: the page, the list of cases, and each case's timeline as a stream.
 *
 *   GET /                          the page (and its files)
 *   GET /api/cases                 { mode, about, clock, cases }
 *   GET /api/cases/:id/run?speed=  the case's timeline, as Server-Sent Events
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { streamCase } from './event-stream.js';
import { parseSpeed } from './speed.js';
import { serveStatic } from './static-files.js';
import type { CaseRunner } from './stream.js';

export interface DemoServerOptions {
  readonly runner: CaseRunner;
  readonly publicDir: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly host?: string;
}

export interface RunningServer {
  /** `http://host:port/` */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

const RUN_PATH = /^\/api\/cases\/([\w-]+)\/run$/;

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(body));
}

async function route(
  options: DemoServerOptions,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://localhost');
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return sendJson(response, 405, { error: 'only GET' });
  }
  const { runner } = options;
  if (url.pathname === '/api/cases') {
    const { mode, about, clock, cases } = runner;
    return sendJson(response, 200, { mode, about, clock, cases });
  }
  const run = RUN_PATH.exec(url.pathname);
  if (run) {
    const caseId = run[1]!;
    if (!runner.cases.some((item) => item.id === caseId)) {
      return sendJson(response, 404, { error: `no case ${caseId}` });
    }
    let speed: ReturnType<typeof parseSpeed>;
    try {
      speed = parseSpeed(url.searchParams.get('speed'));
    } catch (error) {
      return sendJson(response, 400, { error: (error as Error).message });
    }
    return streamCase(runner, caseId, speed, response);
  }
  if (await serveStatic(options.publicDir, url.pathname, response)) return;
  sendJson(response, 404, { error: 'not found' });
}

export function startDemoServer(options: DemoServerOptions): Promise<RunningServer> {
  const server = createServer((request, response) => {
    route(options, request, response).catch((error: unknown) => {
      console.error('request failed:', error);
      if (!response.headersSent) sendJson(response, 500, { error: 'internal error' });
      else response.end();
    });
  });
  const host = options.host ?? '127.0.0.1';
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      const { port } = server.address() as AddressInfo;
      const shown = host === '127.0.0.1' || host === '0.0.0.0' ? 'localhost' : host;
      resolve({
        url: `http://${shown}:${port}/`,
        port,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections(); // ends streams still playing
            server.close(() => done());
          }),
      });
    });
  });
}
