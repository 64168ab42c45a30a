import type { CaseScript } from './case-script.js';
import { crashedHolder } from './crashed-holder.js';
import { failedRelease } from './failed-release.js';
import { giftDuringHop } from './gift-during-hop.js';
import { liveHolder } from './live-holder.js';
import { olderHolder } from './older-holder.js';
import { sameServerAdopt } from './same-server-adopt.js';
import { sameServerSaving } from './same-server-saving.js';
import { stalledHolder } from './stalled-holder.js';

/** Every case of the catalog, as the in-memory runner plays it. */
export const MEMORY_SCRIPTS: ReadonlyMap<string, CaseScript> = new Map(
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

export type { CaseScript, Story } from './case-script.js';
