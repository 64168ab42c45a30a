/** The page's files, served from one folder and never from outside it. */
import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, resolve, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** Serves `pathname` from `root`; false when there is no such file to serve. */
export async function serveStatic(
  root: string,
  pathname: string,
  response: ServerResponse,
): Promise<boolean> {
  let relative: string;
  try {
    relative = pathname === '/' ? 'index.html' : decodeURIComponent(pathname).slice(1);
  } catch {
    return false; // not a valid escape: no such file
  }
  const file = resolve(root, relative);
  const type = TYPES[extname(file)];
  if (!file.startsWith(resolve(root) + sep) || type === undefined) return false;
  let body: Buffer;
  try {
    body = await readFile(file);
  } catch {
    return false;
  }
  response.writeHead(200, { 'content-type': type, 'cache-control': 'no-cache' });
  response.end(body);
  return true;
}
