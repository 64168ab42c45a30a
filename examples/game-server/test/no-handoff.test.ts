/**
 * `--no-handoff` runs a server as an older build does: it neither subscribes nor beats
 * presence, and its locks carry no presence flag, so a join elsewhere can only wait it out.
 */
import { parseRecord } from '@datadriver/core/rules';
import { RECOMMENDED_REDIS_OPTIONS, RedisStore } from '@datadriver/redis';
import { Redis } from 'ioredis';
import { describe, expect, inject, it } from 'vitest';
import { DRIVER_NAME, GameServerProcess } from '../src/game-server-process.js';
import { PlayerClient } from '../src/player-client.js';

describe('a game server with --no-handoff', () => {
  it('says so, writes locks without the presence flag, and beats no presence', async () => {
    const env = { REDIS_URL: inject('redisUrl') };
    const jobId = `old-${Date.now()}`;
    const server = await GameServerProcess.start({ jobId, env, scale: 0.1, handoff: false });
    const client = new Redis(inject('redisUrl'), RECOMMENDED_REDIS_OPTIONS);
    try {
      const health = (await (await fetch(new URL('/health', server.httpUrl))).json()) as object;
      expect(health).toMatchObject({ jobId, handoff: false });
      const beats: string[] = [];
      server.onEvent((event) => beats.push(event.type));
      const user = `old-${Date.now()}`;
      const player = await PlayerClient.connect(server.url, user);
      expect((await player.next('loaded')).type).toBe('loaded');
      const key = `${DRIVER_NAME}/${user}`;
      const record = parseRecord(key, await new RedisStore({ client }).get(key));
      expect(record?.meta.lock).toMatchObject({ jobId, presence: false });
      await new Promise((resolve) => setTimeout(resolve, 1_000)); // three beats at --scale 0.1
      expect(beats).not.toContain('presence.beat');
      await player.close();
    } finally {
      client.disconnect();
      await server.stop();
    }
  });
});
