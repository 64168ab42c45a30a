import type { Logger } from '@datadriver/core';

/** The bench's own drivers and adapters stay silent: their warnings are expected here. */
export const quietLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};
