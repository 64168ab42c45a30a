import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { Env } from './backend.js';

/** The first executable called `name` on PATH, like `which`, or undefined. */
export function findOnPath(name: string, env: Env = process.env): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here; keep looking.
    }
  }
  return undefined;
}
