/** Under CI=true a missing backend fails the run with the reason, never skips it. */
import { BackendUnavailableError } from '@datadriver/backends';
import { afterEach, expect, it, vi } from 'vitest';
import { runChaos } from '../src/run/chaos-run.js';
import { SHORT_REDIS_RUN } from './support/short-runs.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

it('fails the run when redis-server is missing, saying CI must provide it', async () => {
  vi.stubEnv('CI', 'true');
  vi.stubEnv('PATH', '/nonexistent');
  const run = runChaos({ ...SHORT_REDIS_RUN, durationMs: 1_000 });
  await expect(run).rejects.toBeInstanceOf(BackendUnavailableError);
  await expect(run).rejects.toThrow(/CI must provide it/);
});
