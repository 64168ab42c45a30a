// What a hand-over costs on one Redis between two servers in one process, and what the same
// store commands and messages cost sent by hand. Imports nothing but @datadriver/core,
// @datadriver/redis and ioredis, so it runs against those packages as built at any commit
// (redis-hop-cost.sh copies it into packages/redis and starts a redis-server of its own).
//   node redis-hop-cost.mjs <mode> [hops]
// mode: `handed` (handOverLocks, signed), `signed` (signing alone), `plain` (neither), or
// `by-hand` (no DataDriver: B's read, the request, A's write, the reply, B's read). Each hop
// follows an idle 2 ms (IDLE_MS), as a player's rejoin follows a quiet server. Prints the
// median and p90 of a hop (ms) and node's CPU per hop (µs, user + system) after 200
// unrecorded ones (WARM_UP).
// STEPS=1 also prints where a recorded hop's time goes: the median µs from each step to the
// next, the steps being both servers' events for the player and each Redis command's send,
// its return from ioredis's sendCommand and its reply, and each message's arrival at a
// subscriber (ioredis's `message` event). The marks cost a little time of their own; the
// hops they time are the same code.
import { DataDriver, Handoff } from '@datadriver/core';
import { MemoryHost } from '@datadriver/core/testing';
import {
  RECOMMENDED_REDIS_OPTIONS,
  RedisMessenger,
  RedisPresence,
  RedisStore,
} from '@datadriver/redis';
import { Redis } from 'ioredis';

const mode = process.argv[2] ?? 'handed';
const hops = Number(process.argv[3] ?? 3000);
// WARM_UP=5000: more unrecorded hops first (a server's hop code reaches V8's optimizing tier
// only after a thousand hops or so).
const WARM_UP = Number(process.env.WARM_UP ?? 200);
if (!Number.isSafeInteger(WARM_UP) || WARM_UP < 0) {
  throw new Error(`WARM_UP takes a whole number of hops; got ${process.env.WARM_UP}`);
}
const STEPS = process.env.STEPS === '1';
const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const tag = `hop-cost-${process.pid}`;
const key = `${tag}-player`;
// Budgets far above this loop's rate: a hop every few ms would spend the default ones.
const limits = {
  publishPerMinute: 600_000,
  publishPerPlayerPerMinute: 240_000,
  receivePerMinute: 600_000,
};
// IDLE_MS=0: hops back to back, as the bench's in-process profile runs them.
const IDLE_MS = Number(process.env.IDLE_MS ?? 2);
if (!Number.isFinite(IDLE_MS) || IDLE_MS < 0) {
  throw new Error(`IDLE_MS takes a number of ms of 0 or more; got ${process.env.IDLE_MS}`);
}
const idle = () =>
  IDLE_MS === 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, IDLE_MS));

/** With STEPS=1: this hop's marks in order (`[step, ms]`), and every recorded hop's. */
const marks = [];
const recordedMarks = [];
const mark = STEPS ? (step) => marks.push([step, performance.now()]) : () => undefined;
if (STEPS) {
  const { sendCommand, emit } = Redis.prototype;
  Redis.prototype.sendCommand = function (command, ...rest) {
    mark(`${command.name} sent`);
    const sent = sendCommand.call(this, command, ...rest);
    mark(`${command.name} written`);
    command.promise.then(
      () => mark(`${command.name} replied`),
      () => undefined,
    );
    return sent;
  };
  Redis.prototype.emit = function (event, ...rest) {
    if (event === 'message' || event === 'smessage') mark('message arrived');
    return emit.call(this, event, ...rest);
  };
}

function server(name) {
  const jobId = `${tag}-${name}`;
  const client = new Redis(url, RECOMMENDED_REDIS_OPTIONS);
  const messenger = new RedisMessenger({ client, logger: quiet });
  const presence = new RedisPresence({ client, logger: quiet });
  const signing =
    mode === 'plain' ? {} : { signing: { key: 'the hop-cost fleet key, not a secret' } };
  const handoff = new Handoff({ jobId, messenger, presence, logger: quiet, limits, ...signing });
  const host = new MemoryHost(jobId);
  const driver = new DataDriver({
    name: 'PlayerData',
    defaults: { coins: 0 },
    store: new RedisStore({ client, logger: quiet }),
    messenger,
    presence,
    logger: quiet,
    jobId,
    handoff,
    ...(mode === 'handed' ? { handOverLocks: true } : {}),
  });
  driver.attach(host);
  if (STEPS) driver.on((event) => event.key === key && mark(`${name}: ${event.type}`));
  const close = async () => {
    await driver.close();
    await handoff.destroy();
    await messenger.close();
    client.disconnect();
  };
  return { driver, host, close };
}

/** Resolves with the reason `server`'s load of the player took the lock. */
function joined(target) {
  return new Promise((resolve, reject) => {
    const stop = target.driver.on((event) => {
      if (event.key !== key) return;
      if (event.type === 'load.loaded') resolve(event.reason);
      else if (event.type === 'load.failed') reject(event.error);
      else return;
      stop();
    });
    target.host.join(key);
  });
}

async function driverHops() {
  const servers = [server('A'), server('B')];
  const reasons = {};
  await joined(servers[0]);
  const measured = await measure(async (hop) => {
    const reason = await joined(servers[(hop + 1) % 2]);
    reasons[reason] = (reasons[reason] ?? 0) + 1;
  });
  for (const each of servers) await each.close();
  return { ...measured, reasons };
}

async function byHand() {
  const [a, b] = [0, 1].map(() => new Redis(url, RECOMMENDED_REDIS_OPTIONS));
  const [toA, toB] = [0, 1].map(() => new Redis(url, RECOMMENDED_REDIS_OPTIONS));
  await toA.subscribe(`${tag}-A`);
  await toB.subscribe(`${tag}-B`);
  let arrived = () => undefined;
  for (const subscriber of [toA, toB]) subscriber.on('message', () => arrived());
  const delivery = () => new Promise((resolve) => (arrived = resolve));
  await b.hset(key, 'data', '{"coins":0}', 'lock', '');
  const measured = await measure(async () => {
    await b.hgetall(key);
    let delivered = delivery();
    await b.publish(`${tag}-A`, 'release');
    await delivered;
    await a.hset(key, 'lock', '');
    delivered = delivery();
    await a.publish(`${tag}-B`, 'released');
    await delivered;
    await b.hgetall(key);
  });
  for (const client of [a, b, toA, toB]) client.disconnect();
  return measured;
}

async function measure(hop) {
  const samples = [];
  let before;
  for (let index = 0; index < WARM_UP + hops; index++) {
    if (index === WARM_UP) before = process.cpuUsage();
    marks.length = 0;
    const started = performance.now();
    mark('hop started');
    await hop(index);
    if (index >= WARM_UP) samples.push(performance.now() - started);
    if (index >= WARM_UP && STEPS) recordedMarks.push(marks.splice(0));
    await idle();
  }
  const cpu = process.cpuUsage(before);
  samples.sort((x, y) => x - y);
  return {
    median: samples[samples.length >> 1],
    p90: samples[Math.floor(samples.length * 0.9)],
    cpuUs: (cpu.user + cpu.system) / hops,
  };
}

/** Each step's median µs since the step before it, over the hops whose steps came in that order. */
function stepMedians() {
  const orders = new Map();
  for (const hop of recordedMarks) {
    const order = hop.map(([step]) => step).join('|');
    const alike = orders.get(order);
    if (alike) alike.push(hop);
    else orders.set(order, [hop]);
  }
  const [, usual] = [...orders].sort((x, y) => y[1].length - x[1].length)[0];
  const lines = [
    `steps of the ${usual.length} of ${recordedMarks.length} hops whose steps came in this order (median µs since the step before):`,
  ];
  let total = 0;
  for (let index = 1; index < usual[0].length; index++) {
    const gaps = usual.map((hop) => hop[index][1] - hop[index - 1][1]).sort((x, y) => x - y);
    const median = gaps[gaps.length >> 1] * 1000;
    total += median;
    lines.push(`  ${usual[0][index][0].padEnd(40)} ${median.toFixed(0).padStart(5)}`);
  }
  lines.push(`  ${'sum of the medians'.padEnd(40)} ${total.toFixed(0).padStart(5)}`);
  return lines.join('\n');
}

const result = mode === 'by-hand' ? await byHand() : await driverHops();
const reasons = result.reasons ? ` ${JSON.stringify(result.reasons)}` : '';
if (STEPS) console.error(stepMedians());
console.log(
  `${mode} ${result.median.toFixed(3)} ${result.p90.toFixed(3)} ${result.cpuUs.toFixed(0)}${reasons}`,
);
