// What this machine charges a process for waking from idle: the same few microseconds of work
// (a message's JSON made and parsed, and its HMAC), timed as the first thing a process does after
// sleeping `gap` ms on a timer, again at once after it, and as the average of ten more. A game
// server in a hand-over is woken from idle by each message and store reply, so every step of
// its part runs as "first after the gap"; the spaced two-process floor's processes run far less
// code after each wake. Needs nothing but node.
//   node bench/scripts/cold-wake.mjs [samples, default 300]
// Prints, for gaps of 0, 1, 5 and 15 ms, the median µs of the first run, the second, and the
// warm average.
import { createHmac } from 'node:crypto';

const samples = Number(process.argv[2] ?? 300);
const key = Buffer.alloc(32, 7);

/** A hand-over message's worth of work: its JSON both ways and its signature. */
function work() {
  const message = { T: 'Q', D: 'PlayerData', K: 'player-1234', R: 'server-b', L: 'token-5678' };
  const json = JSON.stringify(message);
  const parsed = JSON.parse(json);
  const signature = createHmac('sha256', key).update(json).digest('base64');
  return parsed.K.length + signature.length;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values) => values.sort((a, b) => a - b)[values.length >> 1];
let sink = 0;
for (let index = 0; index < 5000; index++) sink += work(); // compiled and warm

for (const gap of [0, 1, 5, 15]) {
  const first = [];
  const second = [];
  const warm = [];
  for (let index = 0; index < samples; index++) {
    await sleep(gap);
    const t0 = performance.now();
    sink += work();
    const t1 = performance.now();
    sink += work();
    const t2 = performance.now();
    for (let run = 0; run < 10; run++) sink += work();
    const t3 = performance.now();
    first.push(t1 - t0);
    second.push(t2 - t1);
    warm.push((t3 - t2) / 10);
  }
  const us = (values) => `${(median(values) * 1000).toFixed(1)} µs`;
  const label = `gap ${String(gap).padStart(2)} ms`;
  console.log(`${label}: first ${us(first)}, second ${us(second)}, warm ${us(warm)}`);
}
if (sink === 0) console.log('(unreachable: keeps the work from being optimized away)');
