// The all-Redis live hand-over's figures from a bench run's results.json, on one line: the hop's
// median, the spaced two-process floor's median (ms), their ratio, and the hop's steps from the
// servers' events (medians, ms, in the order the hop takes them). Fails unless every recorded
// hop was handed over (its load took the lock the holder's release wrote for it). Used by
// handover-rounds.sh (handover-ab.sh, signing-cost-ab.sh).
//   node bench/scripts/handover-figures.mjs <results.json>
import { readFileSync } from 'node:fs';

const { figures } = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const by = (id) => figures.find((figure) => figure.id === id);
const hop = by('handover.all-redis');
if (!/ (\d+) of \1 loads took the lock the holder.s release wrote/.test(hop.note)) {
  throw new Error(`not every hop was handed over: ${hop.note}`);
}
const floor = by('limit.all-redis.two-process').summary.median;
const steps = Object.values(hop.detail.phasesMedianMs).map((ms) => ms.toFixed(3));
const median = hop.summary.median;
console.log(median.toFixed(3), floor.toFixed(3), (median / floor).toFixed(2), steps.join(' '));
