import { crashedHolder } from './crashed-holder.js';
import { failedRelease } from './failed-release.js';
import { giftDuringHop } from './gift-during-hop.js';
import { liveHolder } from './live-holder.js';
import { olderHolder } from './older-holder.js';
import type { RedisCaseScript } from './redis-script.js';
import { sameServerAdopt } from './same-server-adopt.js';
import { sameServerSaving } from './same-server-saving.js';
import { stalledHolder } from './stalled-holder.js';

/** Every case of the catalog, as the Redis runner plays it on real game servers. */
export const REDIS_SCRIPTS: ReadonlyMap<string, RedisCaseScript> = new Map(
  [
    liveHolder,
    failedRelease,
    crashedHolder,
    stalledHolder,
    olderHolder,
    sameServerSaving,
    sameServerAdopt,
    giftDuringHop,
  ].map((script) => [script.id, script]),
);

export type { Played, RedisCaseScript, RedisStory } from './redis-script.js';
