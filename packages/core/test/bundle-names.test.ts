/**
 * The published bundle keeps the classes' names (tsup's keepNames): an uncaught error prints
 * as `DataDriverError: Data.Locked: ...`, not under a bundler's rename (`_DataDriverError`).
 * Reads the built package (`pnpm build`; `turbo run test` builds it first).
 */
import { inspect } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

type Entries = typeof import('../src/index.js') &
  typeof import('../src/ports.js') &
  typeof import('../src/testing.js');

async function built(): Promise<Entries> {
  const dist = '../dist/';
  const entries = await Promise.all(
    ['index.js', 'ports.js', 'testing.js'].map(
      (file) => import(/* @vite-ignore */ `${dist}${file}`),
    ),
  );
  return Object.assign({}, ...entries) as Entries;
}

describe('the built package', () => {
  let core: Entries;
  // The first import of the bundle reads and compiles it: seconds on a loaded machine.
  beforeAll(async () => {
    core = await built();
  }, 60_000);

  it('keeps the class names', () => {
    const classes = {
      DataDriver: core.DataDriver,
      DataDriverError: core.DataDriverError,
      Handoff: core.Handoff,
      Profile: core.Profile,
      MemoryStore: core.MemoryStore,
      VirtualClock: core.VirtualClock,
      SystemScheduler: core.SystemScheduler,
    };
    for (const [name, value] of Object.entries(classes)) expect(value.name).toBe(name);
  });

  it('prints an uncaught error as DataDriverError with its code', () => {
    const { DataDriverError } = core;
    const error = new DataDriverError('Data.Locked', 'profile is locked by another server');
    expect(error.constructor.name).toBe('DataDriverError');
    expect(inspect(error).split('\n')[0]).toBe(
      'DataDriverError: Data.Locked: profile is locked by another server',
    );
  });

  it('shares one DataDriverError between its entry points', async () => {
    const dist = '../dist/';
    const ports = await import(/* @vite-ignore */ `${dist}ports.js`);
    const index = await import(/* @vite-ignore */ `${dist}index.js`);
    expect(ports.DataDriverError).toBe(index.DataDriverError);
  });
});
