/**
 * The import rules `pnpm test` keeps (`pnpm lint:deps`): no import cycle in any package's
 * source, and core's floors import only downward. Core's floors, top to bottom; a floor may
 * import any floor below it, never one above it.
 */
const CORE_FLOORS = [
  'driver', // the façade: DataDriver, its assembly, close, history
  'holder', // the holder's side: answers to release requests, players' sessions
  'load', // the joiner's side: a load, its waits and its requests
  'trade', // trades and their journal
  'registry', // this server's sessions, loads and released snapshots
  'session', // one profile's session
  'context', // what one driver shares: context, identity, host slot, background writes
  'config', // the driver's options, checked once
  'handoff', // servers talking: handoff, beat, gate, wire, signing, timings
  'events', // what happens, told: events, the event stream, wake-up signals
  'rules', // pure decisions and their result types
  'ports', // what an adapter implements: ports, errors, JSON values
];

const core = 'packages/core/src';

const upward = CORE_FLOORS.slice(1).map((floor, index) => ({
  name: `core-${floor}-not-upward`,
  comment: `${floor}/ stands below ${CORE_FLOORS.slice(0, index + 1).join(', ')}: it imports none of them`,
  severity: 'error',
  from: { path: `^${core}/${floor}/` },
  to: { path: `^${core}/(${CORE_FLOORS.slice(0, index + 1).join('|')})/` },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      comment: 'Files that import each other in a loop: one of them belongs below the other',
      severity: 'error',
      from: { path: '/src/' },
      to: { circular: true },
    },
    ...upward,
    {
      name: 'core-floors-import-no-entry',
      comment: 'An entry point (src/*.ts) or the testing kit stands above every floor',
      severity: 'error',
      from: { path: `^${core}/(${CORE_FLOORS.join('|')})/` },
      to: { path: `^${core}/([^/]+\\.ts$|testing/)` },
    },
    {
      name: 'core-no-loose-file',
      comment: "Core's root holds its entry points only: every other file is on a floor",
      severity: 'error',
      from: { path: `^${core}/[^/]+\\.ts$`, pathNot: `^${core}/(index|ports|rules|testing)\\.ts$` },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|test|tests|scripts)/|\\.test\\.ts$|\\.d\\.ts$' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
    },
  },
};
