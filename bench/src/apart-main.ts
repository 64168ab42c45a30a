/**
 * `node bench/dist/apart-main.js <measurement> <arguments as JSON>`: one measurement in a node
 * process of its own, its result printed as one line of JSON last (see `measure/apart.ts`).
 */

import type { ApartArguments, ApartName, ApartResults } from './measure/apart.js';
import { measureCoreCycle } from './measure/core-cycle.js';
import { measureThroughput } from './measure/throughput.js';

const measurements: { [N in ApartName]: (args: ApartArguments[N]) => Promise<ApartResults[N]> } = {
  'core-cycle': ({ players, windows, windowSeconds }) =>
    measureCoreCycle(players, windows, windowSeconds),
  throughput: ({ redisUrl, config, clientOptions }) =>
    measureThroughput(redisUrl, config, clientOptions),
};

const [name, json] = process.argv.slice(2) as [ApartName, string];
const result = await measurements[name](JSON.parse(json) as never);
process.stdout.write(`${JSON.stringify(result)}\n`);
process.exit(0);
