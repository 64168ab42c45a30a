import { createRequire } from 'node:module';

/** The instrumentation scope: this package's name and version. */
export const SCOPE = '@datadriver/opentelemetry';
export const VERSION: string = (
  createRequire(import.meta.url)('../package.json') as { version: string }
).version;
