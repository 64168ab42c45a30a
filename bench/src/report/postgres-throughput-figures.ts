/** Throughput on one PostgreSQL (postgres-throughput.ts): DataDriver against a naive row lock. */
import type { Figure } from '../figure.js';
import { describeCalls, STORE_COMMANDS, total } from '../measure/round-trips.js';
import { coldRing, type Window } from '../measure/throughput.js';
import type { RunResults } from '../run.js';
import { type Summary, summarize } from '../stats.js';
import { CYCLE_ROUND_TRIPS_GOAL, meanCalls, THROUGHPUT_GOAL } from './throughput-figures.js';

export function postgresThroughputFigures(results: RunResults): Figure[] {
  const throughput = results.throughputPostgres;
  if (!throughput) return [];
  const { throughputPlayers, throughputSeconds } = results.config;
  const section = `Throughput (one PostgreSQL, one process, ${throughputPlayers} players in flight, pools of ${throughput.poolSize})`;
  const rate = (windows: readonly Window[]) => summarize(windows.map((w) => w.cyclesPerSecond));
  const cpu = (windows: readonly Window[]) => {
    const median = (pick: (w: Window) => number) => summarize(windows.map(pick)).median;
    const node = median((w) => w.nodeCpuUsPerCycle);
    const server = median((w) => w.serverCpuUsPerCycle);
    return `CPU per cycle: node ${node.toFixed(0)} µs, PostgreSQL ${server.toFixed(0)} µs; statements per cycle: ${describeCalls(meanCalls(windows))}`;
  };
  // Runs before the store-alone variant have none of its windows.
  const storeAlone = throughput.storeAlone ?? [];
  const [driver, cold, same, alone, naive] = [
    throughput.driver,
    throughput.driverCold,
    throughput.sameCommands,
    storeAlone,
    throughput.naive,
  ].map(rate) as Summary[] as [Summary, Summary, Summary, Summary, Summary];
  const variants = storeAlone.length > 0 ? 'five' : 'four';
  const windows = `${throughput.driver.length} windows of ${throughputSeconds} s each, the ${variants} variants taking turns`;
  const ratio = driver.median / naive.median;
  const roundTrips = (id: string, label: string, calls: Window[], note: string): Figure => {
    const store = total(meanCalls(calls), STORE_COMMANDS);
    return {
      id,
      section,
      label,
      unit: 'round trips',
      value: store,
      goal: `<= ${CYCLE_ROUND_TRIPS_GOAL} (issue 21's, as on Redis)`,
      meetsGoal: store <= CYCLE_ROUND_TRIPS_GOAL + 0.005,
      note: `${note}; statements per cycle, counted by PostgreSQL (pg_stat_statements, every window): ${describeCalls(meanCalls(calls))}`,
    };
  };
  return [
    {
      id: 'throughput.postgres.datadriver',
      section,
      label: 'DataDriver: load + save + release, all-PostgreSQL',
      unit: 'cycles/s',
      summary: driver,
      note: `${windows}; ${cpu(throughput.driver)}`,
      detail: { windows: throughput.driver },
    },
    {
      id: 'throughput.postgres.datadriver-cold',
      section,
      label: 'DataDriver: load + save + release, no released snapshot (the load reads)',
      unit: 'cycles/s',
      summary: cold,
      note: `${windows}; each player over ${coldRing(throughputPlayers)} keys in turn; ${cpu(throughput.driverCold)}`,
      detail: { windows: throughput.driverCold },
    },
    {
      id: 'throughput.postgres.same-commands',
      section,
      label: "the same statements by hand: 3 calls of the store's compare_and_set",
      unit: 'cycles/s',
      summary: same,
      note: `${windows}; DataDriver's statements per cycle with no DataDriver around them; ${cpu(throughput.sameCommands)}`,
      detail: { windows: throughput.sameCommands },
    },
    ...(storeAlone.length === 0
      ? []
      : [
          {
            id: 'throughput.postgres.store-alone',
            section,
            label: 'the store alone: the same 3 writes as PostgresStore.update calls, no core',
            unit: 'cycles/s',
            summary: alone,
            note: `${windows}; on DataDriver's store and pool, each write given the snapshot the last returned, as core gives it; ${cpu(storeAlone)}`,
            detail: { windows: storeAlone },
          } satisfies Figure,
        ]),
    {
      id: 'throughput.postgres.naive',
      section,
      label: 'naive lock: BEGIN + SELECT ... FOR UPDATE + UPDATE + COMMIT',
      unit: 'cycles/s',
      summary: naive,
      note: `${windows}; one pooled connection held for the transaction; ${cpu(throughput.naive)}`,
      detail: { windows: throughput.naive },
    },
    {
      id: 'throughput.postgres.ratio',
      section,
      label: 'DataDriver / naive, PostgreSQL',
      unit: 'ratio',
      value: ratio,
      goal: `>= ${THROUGHPUT_GOAL} (issue 31)`,
      meetsGoal: ratio >= THROUGHPUT_GOAL,
      note: `medians; the same statements by hand / naive: ${(same.median / naive.median).toFixed(2)} (the design's floor)`,
    },
    {
      id: 'throughput.postgres.ratio.same-commands',
      section,
      label: 'DataDriver / the same statements by hand, PostgreSQL',
      unit: 'ratio',
      value: driver.median / same.median,
      note: "medians: what DataDriver's own code costs over the statements it sends",
    },
    ...(storeAlone.length === 0
      ? []
      : [
          {
            id: 'throughput.postgres.ratio.store-alone',
            section,
            label: 'DataDriver / the store alone, PostgreSQL',
            unit: 'ratio',
            value: driver.median / alone.median,
            note: `medians: what core costs over the adapter; the store alone / the same statements by hand: ${(alone.median / same.median).toFixed(2)} (what the adapter costs over its statements)`,
          } satisfies Figure,
        ]),
    {
      id: 'throughput.postgres.ratio.cold',
      section,
      label: 'DataDriver with no released snapshot / naive, PostgreSQL',
      unit: 'ratio',
      value: cold.median / naive.median,
      note: 'medians: a player arriving from another server (no goal of its own)',
    },
    roundTrips(
      'roundtrips.postgres.cycle',
      'store round trips per load + save + release, PostgreSQL (DataDriver)',
      throughput.driver,
      "a player back on the server they left: the load starts from the release's snapshot",
    ),
    roundTrips(
      'roundtrips.postgres.cycle-cold',
      'store round trips per load + save + release, PostgreSQL, no released snapshot',
      throughput.driverCold,
      `a player arriving from another server: the load reads first; the naive lock's statements per cycle: ${describeCalls(meanCalls(throughput.naive))}`,
    ),
  ];
}
