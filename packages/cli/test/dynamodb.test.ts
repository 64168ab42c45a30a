/**
 * The CLI on a DynamoDB store with DynamoDB presence (messages on Redis), against DynamoDB
 * Local: inspect watches a presence that keeps no expiry before it answers, servers lists the
 * live ones, a wrong table is named with the tables that exist, read-only commands leave every
 * item as it was, and erase hands a live holder's profile over before deleting it.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoPresence, DynamoStore } from '@datadriver/dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Beat, EraseResult, Inspection } from '../src/index.js';
import { cli, json } from './support/cli.js';
import {
  dynamoClient,
  dynamoSnapshot,
  freshTables,
  LOCAL_AWS_ENV,
  type Tables,
} from './support/dynamo.js';
import { type GameServer, gameServer } from './support/game-server.js';
import { type MessageHandler, messageRoundTrip } from './support/message-round-trip.js';
import { uniquePrefix } from './support/names.js';
import { settledRead } from './support/settled-read.js';

const fast = { beatSeconds: 0.2, presenceTtlSeconds: 1 };
let client: DynamoDBClient;
let tables: Tables;
let prefix: string;
const servers: GameServer[] = [];

beforeAll(async () => {
  Object.assign(process.env, LOCAL_AWS_ENV);
  client = dynamoClient(inject('dynamoEndpoint'));
  tables = await freshTables(client);
  prefix = uniquePrefix('ddb-bus');
});
afterAll(async () => {
  for (const server of servers) await server.stop();
  await tables?.drop();
  client?.destroy();
});

const args = () => [
  '--table',
  tables.records,
  '--presence-table',
  tables.presence,
  '--endpoint',
  inject('dynamoEndpoint'),
  '--redis',
  inject('redisUrl'),
  '--prefix',
  prefix,
  '--presence-ttl',
  '1',
];

async function server(jobId: string, onMessage?: MessageHandler): Promise<GameServer> {
  const started = await gameServer({
    ...(onMessage ? { onMessage } : {}),
    url: inject('redisUrl'),
    prefix,
    jobId,
    timings: fast,
    store: new DynamoStore({
      client,
      tableName: tables.records,
      versions: { tableName: tables.versions },
    }),
    presence: new DynamoPresence({ client, tableName: tables.presence }),
  });
  servers.push(started);
  return started;
}

describe('on DynamoDB', () => {
  it('inspect watches presence for one TTL, then reads a live holder alive and a crashed one stopped', async () => {
    const live = await server('ddb-a');
    await live.join('u1');
    live.driver.profile('u1')!.data.coins = 30;
    await live.driver.profile('u1')!.save();
    const crashed = await server('ddb-b');
    await crashed.join('u2');
    await crashed.crash();
    const started = Date.now();
    const alive = json<Inspection>(await cli([...args(), '--json', 'inspect', 'PlayerData', 'u1']));
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(alive).toMatchObject({
      lock: { jobId: 'ddb-a', presence: true },
      holder: { answer: 'alive', watchedMs: 1_250 },
      verdict: { state: 'locked' },
    });
    expect(alive.versions).toHaveLength(1);
    const stopped = json<Inspection>(
      await cli([...args(), '--json', 'inspect', 'PlayerData', 'u2']),
    );
    expect(stopped).toMatchObject({
      holder: { answer: 'stopped', watchedMs: 1_250 },
      verdict: { state: 'holder-stopped', whenProvenStopped: { kind: 'take', reason: 'stolen' } },
    });
  });

  it('servers: those still beating after one TTL of watching', async () => {
    const listed = json<{ servers: Beat[] }>(await cli([...args(), '--json', 'servers']));
    expect(listed.servers.map((beat) => beat.jobId)).toEqual(['ddb-a']);
    expect(listed.servers[0]).toMatchObject({ watchedMs: 1_250 });
  });

  it('read-only commands leave every item of the three tables as it was', async () => {
    // A crashed server no longer beats, so nothing but the CLI could change the tables.
    const quiet = await server('ddb-c');
    await quiet.join('u3');
    quiet.driver.profile('u3')!.addUserId('steam:3');
    await quiet.driver.profile('u3')!.save();
    await quiet.crash();
    for (const other of servers.slice(0, 1)) await other.crash();
    const names = [tables.records, tables.versions, tables.presence];
    const before = await settledRead(() => dynamoSnapshot(client, names));
    for (const command of [
      ['inspect', 'PlayerData', 'u3', '--data'],
      ['servers'],
      ['versions', 'PlayerData', 'u1', '--data'],
      ['find-user', 'steam:3'],
    ]) {
      const run = await cli([...args(), '--json', ...command]);
      expect(run.code, run.stdout).toBe(0);
    }
    expect(await dynamoSnapshot(client, names)).toEqual(before);
    const found = json<{ matches: Array<{ key: string }> }>(
      await cli([...args(), '--json', 'find-user', 'steam:3']),
    );
    expect(found.matches.map((match) => match.key)).toEqual(['u3']);
  });

  it('a wrong table is Data.Misconfigured, naming the tables there; a dead endpoint Data.Unavailable', async () => {
    const wrong = await cli([
      '--table',
      'PlayerDta',
      '--endpoint',
      inject('dynamoEndpoint'),
      'inspect',
      'PlayerData',
      'u1',
    ]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(
      /^Data\.Misconfigured: --table "PlayerDta": no such table \(DynamoDB table "PlayerDta" at http:.*\); tables there: .*/,
    );
    expect(wrong.stderr).toContain(tables.records);
    const dead = await cli([
      '--table',
      tables.records,
      '--endpoint',
      'http://127.0.0.1:1',
      'inspect',
      'PlayerData',
      'u1',
    ]);
    expect(dead.code).toBe(1);
    expect(dead.stderr).toMatch(/^Data\.Unavailable: /);
  });

  it('erase: a live holder on DynamoDB hands over through the Redis bus, then record and versions go', async () => {
    const holder = await server('ddb-d');
    await holder.join('u4');
    holder.driver.profile('u4')!.data.coins = 12;
    await holder.driver.profile('u4')!.save();
    const result = json<EraseResult>(
      await cli([...args(), '--json', 'erase', 'PlayerData', 'u4', '--yes']),
    );
    expect(result).toMatchObject({
      erased: true,
      versions: 1,
      holder: 'ddb-d',
      holderAnswer: 'alive',
      reason: 'unlocked',
    });
    expect(holder.host.kicks).toEqual([
      { player: 'u4', message: 'Support is working on your data. Please rejoin in a moment.' },
    ]);
    const store = new DynamoStore({
      client,
      tableName: tables.records,
      versions: { tableName: tables.versions },
    });
    expect(await store.get('PlayerData/u4')).toBeUndefined();
    expect(await store.versions!.list('PlayerData/u4')).toEqual([]);
  });

  it('messages: send reaches a live holder through the Redis bus; inbox lists, inspect counts and --drop removes one that always throws', async () => {
    await messageRoundTrip(args(), (onMessage) => server('ddb-m', onMessage), 'm1');
  });
});
