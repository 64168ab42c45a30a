/**
 * The words and tone of each event on the timeline. Core events keep their type; the text is
 * written for a reader watching two servers, and the takeover uses the seed's own warning.
 */
import {
  type DataDriverEvent,
  DEFAULT_KICK_MESSAGES,
  describeEvent,
  type RequestAction,
  type WaitReason,
} from '@datadriver/core';
import { formatMs } from './format.js';
import { GIFT_COINS, PLAYER_LABEL } from './gift.js';
import { isStoryEvent, type StoryEvent } from './story-event.js';
import type { Tone } from './stream.js';

export interface EntryText {
  readonly text: string;
  readonly tone: Tone;
}

/** A server's jobId as the page names it ("A"). */
export type LabelOf = (jobId: string) => string;

const WAITS: Record<Exclude<WaitReason, 'locked'>, string> = {
  'local-load': 'Waits for the load of p1 running here',
  'local-release': 'Waits for the leave save running here',
  'local-session': 'Waits for the session of p1 here',
};

const ACTIONS: Record<RequestAction, string> = {
  reply: 'not held here, replies at once',
  kick: 'kicks the stale session',
  release: 'releases now',
  'retry-release': 'retries the failed release now',
  'await-load': 'answers when its load settles',
  'await-release': 'answers when the release lands',
  ignored: 'ignores it: too many servers already wait for this key',
};

const TAKE_REASONS: Record<string, string> = {
  new: 'a new profile',
  unlocked: 'the lock was free',
  own: 'its own lock',
  handed: 'the lock its holder handed over in its release',
  orphaned: 'an orphaned lock of this server',
  stolen: 'the lock taken from a stopped server',
  stale: 'a stale lock',
  adopted: 'the retained profile',
};

function entry(text: string, tone: Tone): EntryText {
  return { text, tone };
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The text of a story event. */
function storyText(event: StoryEvent): EntryText {
  switch (event.type) {
    case 'presence.beat':
      return entry('Presence beat', 'quiet');
    case 'player.left':
      return entry('Player leaves; the leave save starts', 'info');
    case 'server.crashed':
      return entry('Crashes: no write, beat or message leaves it again', 'bad');
    case 'gift.sent':
      return entry(
        `A webhook’s grant: sends ${GIFT_COINS} coins to ${PLAYER_LABEL}, now durable in its inbox`,
        'info',
      );
    case 'server.exited':
      return entry('The server process exited unexpectedly; the demo’s log says why', 'bad');
  }
}

/** The text of a load's progress. */
function loadText(event: DataDriverEvent, labelOf: LabelOf): EntryText | undefined {
  switch (event.type) {
    case 'load.started':
      return entry(event.session ? 'Player joins; the load starts' : 'Load starts', 'info');
    case 'load.waiting':
      return event.reason === 'locked'
        ? entry(`Finds the lock of ${labelOf(event.holder?.jobId ?? '?')}; waits`, 'wait')
        : entry(WAITS[event.reason], 'wait');
    case 'load.loaded':
      return entry(
        `Loaded ${event.key} (${TAKE_REASONS[event.reason] ?? event.reason}) after ${formatMs(event.waitedMs)}`,
        'good',
      );
    case 'load.failed':
      return entry(`Gives up after ${formatMs(event.waitedMs)}: ${event.error.code}`, 'bad');
    case 'presence.read':
      return entry(
        `Reads the presence of ${labelOf(event.holder)}: ${event.answer}`,
        event.answer === 'alive' ? 'info' : 'wait',
      );
    case 'lock.taken': {
      const warning = describeEvent(event)?.message;
      return entry(warning ? capitalised(warning) : `Takes the lock of ${event.key}`, 'good');
    }
    default:
      return undefined;
  }
}

/** The text of the handoff's messages. */
function handoffText(event: DataDriverEvent, labelOf: LabelOf): EntryText | undefined {
  switch (event.type) {
    case 'handoff.request.sent':
      return entry(`Asks ${labelOf(event.holder)} to release ${event.key}`, 'info');
    case 'handoff.request.received':
      return entry(
        `Request from ${labelOf(event.requester)}: ${ACTIONS[event.action]}`,
        event.action === 'kick' || event.action === 'retry-release' ? 'wait' : 'info',
      );
    case 'handoff.reply.sent':
      return entry(`Replies to ${labelOf(event.requester)}: ${event.key} is free`, 'info');
    case 'handoff.reply.received':
      return entry('Reply received; loads again at once', 'info');
    case 'presence.beat-failed':
      return entry('Presence beat fails', 'bad');
    default:
      return undefined;
  }
}

/** The text of what happens to a loaded profile. */
function profileText(event: DataDriverEvent, labelOf: LabelOf): EntryText | undefined {
  switch (event.type) {
    case 'profile.kicked':
      return entry(
        `Kicks the player: “${event.message}”`,
        event.message === DEFAULT_KICK_MESSAGES.joinedElsewhere ? 'wait' : 'bad',
      );
    case 'profile.saved':
      if (event.reason === 'adopt') {
        return entry('Adoption save lands; the lock is this server’s again', 'good');
      }
      return event.reason === 'message'
        ? entry('Applies the pending gift: its coins and its id saved in one write', 'good')
        : entry(`Saves (${event.reason})`, 'info');
    case 'profile.save-failed':
      return entry(`Save (${event.reason}) fails`, 'bad');
    case 'profile.released':
      return entry('Leave save lands; the lock is released', 'good');
    case 'profile.release-failed':
      return entry('Leave save fails; the profile is retained', 'bad');
    case 'profile.adopted':
      return entry(`Adopts the retained profile (${event.outcome})`, 'good');
    case 'lock.lost':
      return entry(
        `Lost the lock${event.holder ? ` to ${labelOf(event.holder.jobId)}` : ''}`,
        'bad',
      );
    case 'trade.recovered':
      return entry(`Recovers trade ${event.trade}: ${event.outcome}`, 'info');
    default:
      return undefined;
  }
}

/** The timeline's words for `event`, or `undefined` for events it does not show. */
export function timelineText(
  event: DataDriverEvent | StoryEvent,
  labelOf: LabelOf,
): EntryText | undefined {
  if (isStoryEvent(event)) return storyText(event);
  return loadText(event, labelOf) ?? handoffText(event, labelOf) ?? profileText(event, labelOf);
}
