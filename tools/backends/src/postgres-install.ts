/**
 * Where PostgreSQL's server programs are, and whom they run as. Debian's `postgresql` package
 * puts `initdb` and `postgres` in /usr/lib/postgresql/<major>/bin, off PATH, so PATH is tried
 * first (another distribution, or a developer's own build) and the newest Debian major after.
 */
import { accessSync, constants, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Env } from './backend.js';
import { findOnPath } from './find-program.js';

const DEBIAN_ROOT = '/usr/lib/postgresql';

/** The directory holding `initdb`, `postgres` and `pg_isready`, or undefined when none does. */
export function findPostgresBin(
  env: Env = process.env,
  debianRoot: string = DEBIAN_ROOT,
): string | undefined {
  const onPath = findOnPath('initdb', env);
  // Through a symlink (/usr/local/bin/initdb -> /usr/lib/postgresql/15/bin/initdb) to the folder
  // that also holds pg_isready and psql.
  if (onPath) return dirname(realpathSync(onPath));
  let majors: string[];
  try {
    majors = readdirSync(debianRoot);
  } catch {
    return undefined;
  }
  const newestFirst = majors
    .filter((name) => /^\d+(\.\d+)?$/.test(name))
    .sort((a, b) => Number(b) - Number(a));
  for (const major of newestFirst) {
    const bin = join(debianRoot, major, 'bin');
    if (executable(join(bin, 'initdb')) && executable(join(bin, 'postgres'))) return bin;
  }
  return undefined;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** A user the server runs as: ids for `spawn`, and the name for messages. */
export interface ServerUser {
  readonly name: string;
  readonly uid: number;
  readonly gid: number;
}

/**
 * Who runs initdb and the server. `initdb` and `postgres` refuse to run as root, so as root
 * (a CI container) they run as the `postgres` user Debian's package creates, else as `nobody`;
 * as anyone else, as that user (undefined: no switch).
 */
export function serverUser(passwd = '/etc/passwd'): ServerUser | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const users = readUsers(passwd);
  const user = users.get('postgres') ?? users.get('nobody');
  if (!user) {
    throw new Error(
      `PostgreSQL refuses to run as root, and ${passwd} has neither a postgres nor a nobody user to run it as`,
    );
  }
  return user;
}

function readUsers(passwd: string): Map<string, ServerUser> {
  const users = new Map<string, ServerUser>();
  let text = '';
  try {
    text = readFileSync(passwd, 'utf8');
  } catch {
    return users;
  }
  for (const line of text.split('\n')) {
    const [name, , uid, gid] = line.split(':');
    if (name && uid !== undefined && gid !== undefined) {
      users.set(name, { name, uid: Number(uid), gid: Number(gid) });
    }
  }
  return users;
}
