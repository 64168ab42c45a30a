/**
 * Serves the built site from its folder, as a static host would: `/` is `index.html`, a path
 * names a file, anything else is a 404. Loopback only, on a free port.
 */
import { readFile, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
};

export interface StaticSite {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  close(): Promise<void>;
}

/** The file a request path names inside `root`, or undefined when it leaves it or is absent. */
async function fileOf(root: string, pathname: string): Promise<string | undefined> {
  const decoded = decodeURIComponent(pathname);
  const path = normalize(join(root, decoded.endsWith('/') ? `${decoded}index.html` : decoded));
  if (path !== root && !path.startsWith(root.endsWith(sep) ? root : `${root}${sep}`)) return;
  const found = await stat(path).catch(() => undefined);
  return found?.isFile() ? path : undefined;
}

export async function serveStatic(root: string): Promise<StaticSite> {
  const server: Server = createServer(async (request, response) => {
    const { pathname } = new URL(request.url ?? '/', 'http://localhost');
    const file = await fileOf(root, pathname);
    if (!file) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const type = TYPES[extname(file)] ?? 'application/octet-stream';
    response.writeHead(200, { 'content-type': type }).end(await readFile(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
