/**
 * The players' data: one DataDriver on Redis (store, handoff messages, presence) tied to this
 * Colyseus process. Server and rooms import it; it attaches once the Colyseus Server exists.
 */
import { ColyseusProfiles } from '@datadriver/colyseus';
import { consoleLogger, DataDriver, DEFAULTS } from '@datadriver/core';
import {
  RECOMMENDED_REDIS_OPTIONS,
  RedisMessenger,
  RedisPresence,
  RedisStore,
} from '@datadriver/redis';
import { Redis } from 'ioredis';
import { readSettings } from './settings.js';

export interface PlayerData {
  coins: number;
}

export const settings = readSettings(process.argv.slice(2), process.env);
export const logger = consoleLogger(`[colyseus:${settings.port}]`);

export const redis = new Redis(settings.redisUrl, RECOMMENDED_REDIS_OPTIONS);
export const messenger = new RedisMessenger({ client: redis, logger });
export const presence = new RedisPresence({ client: redis, logger });
const scaled = (seconds: number) => seconds * settings.scale;

export const playerData = new DataDriver<PlayerData>({
  name: 'PlayerData',
  defaults: { coins: 0 },
  store: new RedisStore({ client: redis, logger }),
  messenger,
  presence,
  logger,
  lockWaitSeconds: scaled(20), // the seed's advice when crashes matter: 20 s covers a takeover
  autosaveSeconds: scaled(DEFAULTS.autosaveSeconds),
  lockTtlSeconds: scaled(DEFAULTS.lockTtlSeconds),
  lockSkewSeconds: scaled(DEFAULTS.lockSkewSeconds),
});

export const profiles = new ColyseusProfiles(playerData);

/** How long each player's last load waited (for another server's lock, say), by profile key. */
export const loadWaits = new Map<string, number>();
playerData.on((event) => {
  if (event.type === 'load.loaded') loadWaits.set(event.key, event.waitedMs);
});
