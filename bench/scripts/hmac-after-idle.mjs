// What one HMAC-SHA256 of a handoff message's fields costs a process that has just woken, as a
// game server wakes for each step of a hand-over: the first and the second call after an idle
// gap, against the same calls back to back, and JSON.stringify of the same fields for scale.
// The Signer (packages/core/src/handoff/signing.ts) makes two for each message of a handed hop
// on each side, `S` and `SH` (a message with no hand-over part carries `S` alone): eight a
// handed hop. Beside it, the same HMAC from SHA-256 states keyed once and
// copied per call (`Hash.copy()`, RFC 2104's inner and outer hashes), checked equal to it; and
// the same HMAC keyed before the idle (`createHmac` made ahead, as the Signer's KeyedHmacs
// keeps two: only its update and digest are timed, the next ones are keyed after the timing).
//   node bench/scripts/hmac-after-idle.mjs [idle ms, default 10] [samples, default 300]
// Prints each operation's median µs: first after idle, second after idle, and warm.
import { createHash, createHmac, randomBytes } from 'node:crypto';

const idleMs = Number(process.argv[2] ?? 10);
const samples = Number(process.argv[3] ?? 300);
const key = randomBytes(32);
// A request's fields as the Signer stringifies them (type, driver, key, requester, lock token).
const fields = ['Q', 'datadriver', 'player-12345', 'server-b', 'k3x9-0001-7f2c-a1b2c3d4e5f6'];
const inner = createHash('sha256').update(pad(0x36));
const outer = createHash('sha256').update(pad(0x5c));
const ops = {
  'JSON.stringify': () => JSON.stringify(fields),
  'HMAC-SHA256': () => createHmac('sha256', key).update(JSON.stringify(fields)).digest('base64url'),
  'HMAC-SHA256 from copied keyed states': () =>
    outer
      .copy()
      .update(inner.copy().update(JSON.stringify(fields)).digest())
      .digest('base64url'),
};
// Keyed ahead: the timed call takes one made before it; `refill` (untimed) makes the next.
const ready = [];
const refill = () => {
  while (ready.length < 2) ready.push(createHmac('sha256', key));
};
const keyedAhead = () =>
  (ready.pop() ?? createHmac('sha256', key)).update(JSON.stringify(fields)).digest('base64url');
ops['HMAC-SHA256 keyed before the idle'] = keyedAhead;
refill();
if (ops['HMAC-SHA256 keyed before the idle']() !== ops['HMAC-SHA256']()) {
  throw new Error('the HMAC keyed ahead is not the same HMAC');
}
if (ops['HMAC-SHA256']() !== ops['HMAC-SHA256 from copied keyed states']()) {
  throw new Error('the copied keyed states do not make the same HMAC');
}

/** The key padded to SHA-256's 64-byte block, each byte XORed with `byte`. */
function pad(byte) {
  const block = Buffer.alloc(64, byte);
  for (let n = 0; n < key.length; n++) block[n] ^= key[n];
  return block;
}

const idle = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const timed = (op) => {
  const start = process.hrtime.bigint();
  op();
  return Number(process.hrtime.bigint() - start) / 1000;
};
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

for (const op of Object.values(ops)) for (let n = 0; n < 20_000; n++) op();
for (const [name, op] of Object.entries(ops)) {
  const first = [];
  const second = [];
  for (let n = 0; n < samples; n++) {
    if (op === keyedAhead) refill();
    await idle(idleMs);
    first.push(timed(op));
    second.push(timed(op));
  }
  // Back to back; the keyed variant's calls take HMACs keyed before the timing, 10,000 at a
  // time, as each message's are.
  const calls = 50_000;
  let took = 0n;
  for (let done = 0; done < calls; done += 10_000) {
    if (op === keyedAhead) for (let n = 0; n < 10_000; n++) ready.push(createHmac('sha256', key));
    const start = process.hrtime.bigint();
    for (let n = 0; n < 10_000; n++) op();
    took += process.hrtime.bigint() - start;
  }
  const warm = Number(took) / 1000 / calls;
  console.log(
    `${name}: first after ${idleMs} ms idle ${median(first).toFixed(1)} µs, second ${median(second).toFixed(1)} µs, back to back ${warm.toFixed(2)} µs (medians of ${samples})`,
  );
}
