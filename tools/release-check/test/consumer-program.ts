/**
 * The program a user would write after `npm install @datadriver/core @datadriver/redis
 * ioredis`: it is copied into a fresh project outside the workspace, type-checked there with
 * the installed declarations, compiled and run.
 */
export const CONSUMER_PROGRAM = `
import { DataDriver, DataDriverError, ErrorCode, type Profile } from '@datadriver/core';
import { checkStoreKey } from '@datadriver/core/ports';
import { MemoryStore } from '@datadriver/core/testing';
import { RECOMMENDED_REDIS_OPTIONS, RedisMessenger, RedisPresence, RedisStore } from '@datadriver/redis';
import { Redis } from 'ioredis';

interface PlayerData {
  coins: number;
  badges: string[];
}

const client = new Redis(process.env.REDIS_URL ?? '', RECOMMENDED_REDIS_OPTIONS);
const prefix = \`packed-\${process.pid}:\`;
const driver = new DataDriver<PlayerData>({
  name: 'PlayerData',
  defaults: { coins: 0, badges: [] },
  store: new RedisStore({ client, prefix }),
  messenger: new RedisMessenger({ client, prefix }),
  presence: new RedisPresence({ client, prefix }),
  jobId: 'packed-install',
});

const profile: Profile<PlayerData> = await driver.load('user-1');
profile.data.coins += 25;
profile.data.badges.push('first-login');
await profile.save();
await profile.release();

const again = await driver.load('user-1');
let refused = '';
try {
  await new DataDriver<PlayerData>({ name: '', defaults: { coins: 0, badges: [] }, store: new RedisStore({ client, prefix }) }).load('x');
} catch (error) {
  if (DataDriverError.is(error, ErrorCode.InvalidConfig)) refused = error.code;
}
// The three entry points share one DataDriverError class.
let sameErrorClass = false;
try {
  checkStoreKey('\\uD800');
} catch (error) {
  sameErrorClass = error instanceof DataDriverError && DataDriverError.is(error, ErrorCode.InvalidArgument);
}
const inMemory = new DataDriver({ name: 'InMemory', defaults: { coins: 1 }, store: new MemoryStore() });
const inMemoryCoins = (await inMemory.load('m')).data.coins;
await inMemory.close();
console.log(JSON.stringify({ data: again.data, active: again.active, refused, entries: { sameErrorClass, inMemoryCoins } }));
await driver.close();
client.disconnect();
`;
