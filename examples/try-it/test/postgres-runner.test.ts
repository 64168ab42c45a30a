/**
 * The Try it page on PostgreSQL (`--postgres`): the same cases on real game-server processes
 * running `--stack postgres` against a real PostgreSQL: the live hand-over (over LISTEN/NOTIFY)
 * as the Redis runner's tests play it, and a database that does not answer refused at start.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { RedisCaseRunner } from '../src/redis/redis-runner.js';
import { recordOn } from './support/record.js';

const SLACK_MS = 2_500;
const CASE_MS = 90_000;

let runner: RedisCaseRunner;

beforeAll(async () => {
  runner = await RedisCaseRunner.connectPostgres(inject('postgresUrl'));
});
afterAll(async () => {
  await runner?.close();
});

describe('the runner on PostgreSQL', () => {
  it(
    'player still connected on A: A kicks and hands over through PostgreSQL, B loads the 11 coins',
    async () => {
      const { outcome, shown, messages } = await recordOn(runner, 'live-holder', {
        speed: 'instant',
      });
      expect(outcome).toMatchObject({
        server: 'B',
        kind: 'loaded',
        coins: 11,
        stored: { coins: 11, holder: 'B' },
      });
      const order = shown.map((entry) => `${entry.server} ${entry.type}`);
      const at = (wanted: string) => order.indexOf(wanted);
      expect(at('A handoff.request.received')).toBeGreaterThan(at('B handoff.request.sent'));
      expect(at('A profile.released')).toBeGreaterThan(at('A handoff.request.received'));
      expect(at('B load.loaded')).toBeGreaterThan(at('A profile.released'));
      expect(at('B handoff.request.sent')).toBeGreaterThanOrEqual(0);
      expect(outcome.waitedMs).toBeLessThan(1_500 + SLACK_MS); // the live hand-over: under 1.5 s
      expect(messages[0]).toMatchObject({ kind: 'started', mode: 'PostgreSQL' });
      expect(runner.about).toContain(`on PostgreSQL at ${inject('postgresUrl')}`);
    },
    CASE_MS,
  );

  it('refuses to start on a PostgreSQL that does not answer, saying what to do', async () => {
    await expect(
      RedisCaseRunner.connectPostgres('postgres://postgres@127.0.0.1:1/postgres'),
    ).rejects.toThrow(
      /^cannot reach PostgreSQL at postgres:\/\/postgres@127\.0\.0\.1:1\/postgres \(.*\)\. Start one or run the demo without --postgres\.$/,
    );
  });
});
