import type { Logger } from '@datadriver/core';

/** The adapters' and read-only drivers' lines are noise in a command's output. */
export const quietLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
