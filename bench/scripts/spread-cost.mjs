// What a copy of an object with keys added costs, made with a spread and with `Object.assign`
// (`copyWith` in packages/core/src/ports/copy-with.ts), in the shapes core makes on a
// hand-over's path: an event stamped as the event stream stamps each one a listener hears
// (`{ ...payload, ...extra, ...stamp }`), a load's event given its load id, a signed message
// given `S` and `SH`. On Node 20 (V8 11.3) each key a spread's copy gains is a call into the
// runtime. Each shape runs in its own process, so one's type feedback does not slow another's.
//   node bench/scripts/spread-cost.mjs [calls, default 1000000] [runs, default 5]
// Prints each shape's best ns per call over the runs, both ways, and node's version.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const calls = Number(process.argv[2] ?? 1_000_000);
const runs = Number(process.argv[3] ?? 5);

// Fresh inputs each call, as in core: the payload, the stamp and the message are new objects.
const payload = (i) => ({ type: 'handoff.reply.sent', key: `player-${i & 1023}`, requester: 'b' });
const message = (i) => ({ T: 'R', D: 'PlayerData', K: `player-${i & 1023}`, H: 'h', V: 'v' });
const stamp = (i) => ({ time: 1_764_000_000_000 + i, jobId: 'server-a' });
const extra = { driver: 'PlayerData' };
const shapes = {
  'stamped event': {
    spread: (i) => ({ ...payload(i), ...extra, ...stamp(i) }),
    assign: (i) => Object.assign({}, payload(i), extra, stamp(i)),
  },
  'load event + loadId': {
    spread: (i) => ({ ...payload(i), loadId: i }),
    assign: (i) => Object.assign({}, payload(i), { loadId: i }),
  },
  'signed message + S, SH': {
    spread: (i) => ({ ...message(i), S: 's', SH: 'sh' }),
    assign: (i) => Object.assign({}, message(i), { S: 's', SH: 'sh' }),
  },
};

const [shapeName, way] = process.argv.slice(4);
if (shapeName !== undefined) {
  const make = shapes[shapeName][way];
  let sink = 0;
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < runs; run++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) sink += make(i).D === undefined ? 1 : 0;
    best = Math.min(best, Number(process.hrtime.bigint() - started) / calls);
  }
  if (sink < 0) console.log(sink);
  console.log(best.toFixed(1));
} else {
  const script = fileURLToPath(import.meta.url);
  const args = [String(calls), String(runs)];
  console.log(`node ${process.version}: best ns per call over ${runs} runs of ${calls}`);
  for (const name of Object.keys(shapes)) {
    const ns = ['spread', 'assign'].map((w) =>
      execFileSync(process.execPath, [script, ...args, name, w], { encoding: 'utf8' }).trim(),
    );
    console.log(
      `${name.padEnd(24)} spread ${ns[0].padStart(7)}   Object.assign ${ns[1].padStart(7)}`,
    );
  }
}
