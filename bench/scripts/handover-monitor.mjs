// Where an all-Redis hop's time goes between its store and message commands, on Redis's own
// clock: reads a `redis-cli monitor` capture (bench/scripts/handover-monitor.sh) and prints the
// medians of each step of the last 200 hops, and of the spaced and back-to-back floor samples.
//   hop:   B's read (HGETALL) -> B's request (PUBLISH) -> A's release (the script's HGET) ->
//          A's reply (PUBLISH)
//   floor: B's request (PUBLISH) -> A's write (HSET) -> A's reply (PUBLISH) -> B's write (HSET)
// Each step is the other side's wake and work, plus the command's trip: compare like with like.
//   node bench/scripts/handover-monitor.mjs <capture file>
import { readFileSync } from 'node:fs';

const LINE = /^([\d.]+) \[\d+ [^\]]+\] "(\w+)"(?: "([^"]*)")?/;
const commands = [];
for (const line of readFileSync(process.argv[2] ?? '/dev/stdin', 'utf8').split('\n')) {
  const match = LINE.exec(line);
  if (match)
    commands.push({
      at: Number(match[1]) * 1000,
      name: match[2].toUpperCase(),
      arg: match[3] ?? '',
    });
}
const median = (values) => {
  if (values.length === 0) return '-';
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)].toFixed(3);
};
const isHopKey = (arg) => /PlayerData\/hop-/.test(arg);
const isHandoff = (arg) => arg.includes('CKHandoff');

const hops = [];
commands.forEach((command, index) => {
  if (command.name !== 'HGETALL' || !isHopKey(command.arg)) return;
  const hop = { read: command.at };
  for (const next of commands.slice(index + 1, index + 400)) {
    if (hop.request === undefined) {
      if (next.name === 'PUBLISH' && isHandoff(next.arg)) hop.request = next.at;
    } else if (hop.write === undefined) {
      if (next.name === 'HGET' && isHopKey(next.arg)) hop.write = next.at;
    } else if (next.name === 'PUBLISH' && isHandoff(next.arg)) {
      hop.reply = next.at;
      break;
    }
  }
  if (hop.reply !== undefined) hops.push(hop);
});
const recorded = hops.slice(-200);
const steps = (list, names) =>
  names
    .slice(1)
    .map((name, i) => `${names[i]}->${name} ${median(list.map((s) => s[name] - s[names[i]]))}`)
    .join(', ');
console.log(`hop (${recorded.length}): ${steps(recorded, ['read', 'request', 'write', 'reply'])}`);

const floors = [];
let lastEnd;
commands.forEach((command, index) => {
  if (command.name !== 'PUBLISH' || !/limit2.*request/.test(command.arg)) return;
  const sample = { request: command.at, gap: lastEnd === undefined ? 0 : command.at - lastEnd };
  for (const next of commands.slice(index + 1, index + 50)) {
    if (sample.holderWrite === undefined) {
      if (next.name === 'HSET') sample.holderWrite = next.at;
    } else if (sample.reply === undefined) {
      if (next.name === 'PUBLISH' && /limit2.*reply/.test(next.arg)) sample.reply = next.at;
    } else if (next.name === 'HSET') {
      sample.write = next.at;
      break;
    }
  }
  if (sample.write === undefined) return;
  floors.push(sample);
  lastEnd = sample.write;
});
const names = ['request', 'holderWrite', 'reply', 'write'];
const spaced = floors.filter((sample) => sample.gap > 5).slice(-200);
const backToBack = floors.filter((sample) => sample.gap > 0 && sample.gap < 1).slice(-1000);
console.log(`floor, spaced (${spaced.length}): ${steps(spaced, names)}`);
console.log(`floor, back to back (${backToBack.length}): ${steps(backToBack, names)}`);
