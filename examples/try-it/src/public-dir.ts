import { fileURLToPath } from 'node:url';

/**
 * The page's static files. This module sits one folder below the package, in `src` and
 * (bundled into server.js) in `dist` alike, so one relative path serves both.
 */
export const PUBLIC_DIR = fileURLToPath(new URL('../public/', import.meta.url));
