// How long each process of an all-Redis hop works on each of its steps, against the floor's
// holder on the same steps: reads the socket times that socket-times.cjs recorded
// (bench/scripts/handover-inprocess.sh) and prints medians in ms. A step runs from the socket
// read that woke the process to its next write, so it is that process's own work (JS, the
// client library, node), with none of the wake or the trip in it.
//   hop, holder A:  the request's read -> the release write (EVALSHA); the write's answer ->
//                   the reply (PUBLISH)
//   hop, joiner B:  its read's answer -> the request (PUBLISH); the reply's read -> `loaded`,
//                   written to the player
//   floor's holder: the request's read -> its write; the write's answer -> the reply
//   floor's B (the bench): the reply's read -> its write
// Hops: the measured player's last 100 on each server in each role (its 200 recorded hops).
// Floor: its last 200 spaced samples (more than 5 ms after the previous one ended) and last
// 1,000 back-to-back ones (less than 1 ms), as handover-monitor.mjs splits them.
//   node bench/scripts/handover-inprocess.mjs <directory of socket-times logs>
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const directory = process.argv[2];
const median = (values) => {
  if (values.length === 0) return '-';
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)].toFixed(3);
};

/** A log's lines: when (µs), R or W, the socket's local port, the chunk's first bytes. */
function chunksOf(file) {
  const chunks = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /^(\d+) ([RW]) (\d+) \d+ (.*)$/.exec(line);
    if (match)
      chunks.push({
        at: Number(match[1]),
        dir: match[2],
        port: match[3],
        text: JSON.parse(match[4]),
      });
  }
  return chunks;
}

/** The first chunk at or after `from` that `test` accepts, or undefined. */
function next(chunks, from, test) {
  for (let index = from; index < chunks.length; index++) {
    if (test(chunks[index])) return index;
  }
  return undefined;
}

const measured = (text) => /hop-[\w-]+/.test(text) && !text.includes('-warm-');
const isRequest = (c) => c.dir === 'R' && c.text.includes('message') && c.text.includes('"T":"Q"');
const isReply = (c) => c.dir === 'R' && c.text.includes('message') && c.text.includes('"T":"R"');
const published = (type) => (c) =>
  c.dir === 'W' && c.text.includes('publish') && c.text.includes(`"T":"${type}"`);
const ms = (from, to) => (to.at - from.at) / 1000;

/** `more(index)`, or undefined when there is no index: lookups one after another. */
const then = (index, more) => (index === undefined ? undefined : more(index));
const answerTo = (chunks, write) =>
  next(chunks, write + 1, (c) => c.dir === 'R' && c.port === chunks[write].port);

/** A game server's holder and joiner steps, the measured player's last `count` of each. */
function serverSteps(chunks, count) {
  const steps = { request: [], answer: [], read: [], reply: [] };
  chunks.forEach((chunk, index) => {
    if (isRequest(chunk) && measured(chunk.text)) {
      const write = next(chunks, index + 1, (c) => c.dir === 'W' && c.text.includes('evalsha'));
      const answer = then(write, (i) => answerTo(chunks, i));
      const reply = then(answer, (i) => next(chunks, i + 1, published('R')));
      if (reply === undefined) return;
      steps.request.push(ms(chunk, chunks[write]));
      steps.answer.push(ms(chunks[answer], chunks[reply]));
    }
    if (chunk.dir === 'W' && chunk.text.includes('hgetall') && measured(chunk.text)) {
      const read = answerTo(chunks, index);
      const request = then(read, (i) =>
        next(chunks, i + 1, (c) => c.dir === 'W' && c.text.includes('publish')),
      );
      if (request === undefined || !published('Q')(chunks[request])) return;
      const reply = next(chunks, request + 1, isReply);
      const loaded = then(reply, (i) =>
        next(chunks, i + 1, (c) => c.dir === 'W' && c.text.includes('"type":"loaded"')),
      );
      if (loaded === undefined) return;
      steps.read.push(ms(chunks[read], chunks[request]));
      steps.reply.push(ms(chunks[reply], chunks[loaded]));
    }
  });
  for (const name of Object.keys(steps)) steps[name] = steps[name].slice(-count);
  return steps;
}

/**
 * Splits the floor's samples as handover-monitor.mjs does: spaced when more than 5 ms after the
 * previous one ended (its last 200), back to back when less than 1 ms (its last 1,000; not the
 * first sample, which follows nothing).
 */
function split(samples) {
  const spaced = samples.filter((sample) => sample.gap > 5).slice(-200);
  const backToBack = samples.filter((sample) => sample.gap > 0 && sample.gap < 1).slice(-1000);
  return { spaced, backToBack };
}

/** The floor's holder: the request's read -> its write, the write's answer -> its reply. */
function floorHolderSteps(chunks) {
  const samples = [];
  let lastEnd;
  chunks.forEach((chunk, index) => {
    if (!(isRequest(chunk) && chunk.text.includes('limit2'))) return;
    const write = next(chunks, index + 1, (c) => c.dir === 'W' && c.text.includes('limit2'));
    const answer = then(write, (i) => answerTo(chunks, i));
    const reply = then(answer, (i) => next(chunks, i + 1, published('R')));
    if (reply === undefined) return;
    samples.push({
      gap: lastEnd === undefined ? 0 : ms(chunks[lastEnd], chunk),
      request: ms(chunk, chunks[write]),
      answer: ms(chunks[answer], chunks[reply]),
    });
    lastEnd = reply;
  });
  return split(samples);
}

/** The floor's B, the bench: the reply's read -> its write of the lock. */
function floorJoinerSteps(chunks) {
  const samples = [];
  let lastEnd;
  chunks.forEach((chunk, index) => {
    if (!(published('Q')(chunk) && chunk.text.includes('limit2'))) return;
    const reply = next(chunks, index + 1, (c) => isReply(c) && c.text.includes('limit2'));
    const write = then(reply, (i) =>
      next(chunks, i + 1, (c) => c.dir === 'W' && c.text.includes('limit2')),
    );
    if (write === undefined) return;
    samples.push({
      gap: lastEnd === undefined ? 0 : ms(chunks[lastEnd], chunk),
      reply: ms(chunks[reply], chunks[write]),
    });
    lastEnd = write;
  });
  return split(samples);
}

const of = (samples, name) => median(samples.map((sample) => sample[name]));
const files = readdirSync(directory).filter((name) => name.endsWith('.log'));
for (const name of files.filter((n) => n.startsWith('server-'))) {
  const steps = serverSteps(chunksOf(join(directory, name)), 100);
  const short = Object.values(steps).some((list) => list.length < 100);
  console.log(
    `${name}: as A (${steps.request.length}): request -> release write ${median(steps.request)}, ` +
      `write's answer -> reply ${median(steps.answer)}; as B (${steps.read.length}): read's ` +
      `answer -> request ${median(steps.read)}, reply -> loaded ${median(steps.reply)}` +
      (short ? ' (fewer than 100 hops found: the log is short)' : ''),
  );
}
for (const name of files.filter((n) => n.startsWith('floor-holder-'))) {
  const { spaced, backToBack } = floorHolderSteps(chunksOf(join(directory, name)));
  for (const [label, samples] of [
    ['spaced', spaced],
    ['back to back', backToBack],
  ]) {
    console.log(
      `floor's holder, ${label} (${samples.length}): request -> write ` +
        `${of(samples, 'request')}, write's answer -> reply ${of(samples, 'answer')}`,
    );
  }
}
for (const name of files.filter((n) => n.startsWith('bench-'))) {
  const { spaced, backToBack } = floorJoinerSteps(chunksOf(join(directory, name)));
  console.log(
    `floor's B (the bench): reply -> write, spaced (${spaced.length}) ${of(spaced, 'reply')}, ` +
      `back to back (${backToBack.length}) ${of(backToBack, 'reply')}`,
  );
}
