/**
 * The package's three entries: each value in one of them, and no path past them. (Type-only
 * names leave nothing at run time to compare; the entry files list each once.)
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as cluster from '../src/cluster/index.js';
import * as main from '../src/index.js';
import * as simulation from '../src/simulation/index.js';

const entries = { '.': main, './cluster': cluster, './simulation': simulation };

describe('the entries', () => {
  it('export each value from one entry only', () => {
    const owners = new Map<string, string[]>();
    for (const [entry, names] of Object.entries(entries)) {
      for (const name of Object.keys(names)) owners.set(name, [...(owners.get(name) ?? []), entry]);
    }
    const twice = [...owners].filter(([, where]) => where.length > 1);
    expect(twice).toEqual([]);
  });

  it('keep the runners in the main entry and the cluster out of it', () => {
    expect(Object.keys(main)).toEqual(
      expect.arrayContaining(['runHandoffScenarios', 'storeConformance', 'fuzzSuite', 'realTime']),
    );
    expect(Object.keys(main)).not.toContain('Cluster');
    expect(Object.keys(cluster)).toEqual(
      expect.arrayContaining(['Cluster', 'withCluster', 'TimeLedger', 'recordingLogger']),
    );
    expect(Object.keys(simulation)).toEqual(expect.arrayContaining(['runSimulation', 'Random']));
  });

  it('are the only paths the package exports', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      exports: Record<string, unknown>;
    };
    expect(Object.keys(pkg.exports)).toEqual([...Object.keys(entries), './package.json']);
  });
});
