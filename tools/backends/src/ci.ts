import type { Env } from './backend.js';

/** CI services set CI=true; anything but empty, "0" or "false" counts. */
export function isCi(env: Env = process.env): boolean {
  const value = env.CI?.trim().toLowerCase();
  return value !== undefined && value !== '' && value !== '0' && value !== 'false';
}

/**
 * How to fix a missing backend. On CI the fix belongs in the CI script, not on someone's laptop,
 * so the advice points there.
 */
export function installAdvice(install: string, envVar: string, env: Env = process.env): string {
  if (isCi(env)) {
    return `CI must provide it: add \`${install}\` to the CI script before the tests, or set ${envVar} to a running instance.`;
  }
  return `Install it with \`${install}\`, or set ${envVar} to a running instance.`;
}
