/** The message figures (all-Redis): measure/message-gift.ts, -load-cost.ts, -popular.ts. */
import type { Figure } from '../figure.js';
import type { LoadCostResult } from '../measure/message-load-cost.js';
import type { PopularResult } from '../measure/message-popular.js';
import { describeCalls, STORE_COMMANDS, total } from '../measure/round-trips.js';
import type { Window } from '../measure/throughput.js';
import type { RunResults } from '../run.js';
import { summarize } from '../stats.js';
import { meanCalls } from './throughput-figures.js';

const SECTION = 'Messages (all-Redis)';

export function messageFigures(results: RunResults): Figure[] {
  const messages = results.messages;
  if (!messages) return [];
  return [
    ...giftFigures(results),
    ...loadCostFigures(messages.loadCost, results.config.throughputPlayers),
    popularFigure('messages.popular', messages.popular, messages.popularOne),
    popularFigure('messages.popular.one-sender', messages.popularOne),
  ];
}

/** A holder's clock offset and the round trip that bounds its error. */
function clockNote({ offsetMs, roundTripMs }: { offsetMs: number; roundTripMs: number }): string {
  return `${offsetMs.toFixed(3)} ms (±${(roundTripMs / 2).toFixed(3)})`;
}

function giftFigures(results: RunResults): Figure[] {
  const gift = results.messages!.gift;
  const driver = summarize(gift.driver);
  const floor = summarize(gift.floor);
  const sent = summarize(gift.driverSend);
  const ratio = driver.median / floor.median;
  return [
    {
      id: 'messages.gift.all-redis',
      section: SECTION,
      label:
        'gift to an online player: driver.send in one process to message.applied on the holder (another process)',
      unit: 'ms',
      summary: driver,
      goal: `floor ${floor.median.toFixed(2)} ms (ratio ${ratio.toFixed(2)})`,
      note: `send resolved (durable in the inbox) after ${sent.median.toFixed(2)} ms median; then the send's read of the profile and its nudge, the holder's inbox read and its compare-and-set of the profile; ${gift.batchedPasses} passes applied more than one message; the holders' clocks ${clockNote(gift.clocks.holder)} (gifts) and ${clockNote(gift.clocks.floor)} (floor) from the bench's, subtracted`,
      detail: { sendResolved: sent },
    },
    {
      id: 'messages.gift.all-redis.floor',
      section: SECTION,
      label:
        "floor: the adapter's update of an inbox key, one publish to the holder, its compare-and-set of the profile, by hand",
      unit: 'ms',
      summary: floor,
      note: 'between the same two kinds of process, samples alternating with the gifts',
    },
    {
      id: 'messages.gift.all-redis.ratio',
      section: SECTION,
      label: 'gift / floor, medians',
      unit: 'ratio',
      value: ratio,
    },
  ];
}

function loadCostFigures(cost: LoadCostResult, players: number): Figure[] {
  const withHandler = summarize(cost.loadMs.withHandler);
  const without = summarize(cost.loadMs.withoutHandler);
  const rate = (windows: readonly Window[]) =>
    windows.reduce((sum, window) => sum + window.cyclesPerSecond, 0) / windows.length;
  const rateWith = rate(cost.windows.withHandler);
  const rateWithout = rate(cost.windows.withoutHandler);
  const callsWith = meanCalls(cost.windows.withHandler);
  const callsWithout = meanCalls(cost.windows.withoutHandler);
  const trips = (calls: ReturnType<typeof meanCalls>) => total(calls, STORE_COMMANDS).toFixed(2);
  return [
    {
      id: 'messages.load.with-handler',
      section: SECTION,
      label: 'a load with an onMessage (one player at a time)',
      unit: 'ms',
      summary: withHandler,
      note: 'the load reads the inbox after the lock is taken',
    },
    {
      id: 'messages.load.without-handler',
      section: SECTION,
      label: 'the same load without an onMessage',
      unit: 'ms',
      summary: without,
      note: 'same player, same Redis; blocks of loads on each server in turn',
    },
    {
      id: 'messages.load.extra',
      section: SECTION,
      label: "extra time a load pays for checking the inbox (medians' difference)",
      unit: 'ms',
      value: withHandler.median - without.median,
    },
    {
      id: 'messages.load.throughput.with-handler',
      section: SECTION,
      label: `load + release with an onMessage, ${players} players in flight`,
      unit: 'cycles/s',
      value: rateWith,
      note: `store round trips per cycle ${trips(callsWith)}; commands per cycle: ${describeCalls(callsWith)}`,
    },
    {
      id: 'messages.load.throughput.without-handler',
      section: SECTION,
      label: `load + release without an onMessage, ${players} players in flight`,
      unit: 'cycles/s',
      value: rateWithout,
      note: `store round trips per cycle ${trips(callsWithout)}; commands per cycle: ${describeCalls(callsWithout)}`,
    },
    {
      id: 'messages.load.throughput.ratio',
      section: SECTION,
      label: 'load + release throughput, with an onMessage / without',
      unit: 'ratio',
      value: rateWith / rateWithout,
      note: `windows taking turns: ${cost.windows.withHandler.length} of each`,
    },
  ];
}

function popularFigure(id: string, popular: PopularResult, alone?: PopularResult): Figure {
  const rate = (result: PopularResult) => result.sent / result.sendSeconds;
  return {
    id,
    section: SECTION,
    label:
      popular.senders === 1
        ? 'the same from one sender (no contention), for reference'
        : `sends to one popular profile, ${popular.senders} concurrent senders, the holder online applying`,
    unit: 'sends/s',
    value: rate(popular),
    ...(alone ? { goal: `one sender alone ${rate(alone).toFixed(0)}/s` } : {}),
    note: `${popular.sent} sent in ${popular.sendSeconds.toFixed(1)} s, all ${popular.applied} applied on the holder (by id) in ${popular.passes} passes, the last ${popular.drainMs.toFixed(1)} ms after the last send resolved; ${popular.inboxFullRetries} sends refused with Data.InboxFull, ${popular.conflictRetries} with Data.Conflict (the store's retries ran out) and ${popular.uncertainRetries} with Data.DeliveryUncertain (the receipt window forgot later sends first), each sent again with its id; commands per send at Redis (every client's): ${describeCalls(popular.callsPerSend)}`,
    detail: { ...popular },
  };
}
