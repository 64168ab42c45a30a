/** What the conformance suite does not reach: channel names, a silent connection, a pooler. */
import { setTimeout as sleep } from 'node:timers/promises';
import { recordingLogger } from '@datadriver/testkit/cluster';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { PostgresMessenger } from '../src/index.js';
import { Pools, postgresProxy, postgresUrl, quiet, throughProxy } from './support/postgres.js';

const pools = new Pools();
const messengers: PostgresMessenger[] = [];
afterAll(async () => {
  await Promise.all(messengers.map((messenger) => messenger.close()));
  await pools.endAll();
});

function messenger(options: Partial<ConstructorParameters<typeof PostgresMessenger>[0]> = {}) {
  const made = new PostgresMessenger({ pool: pools.open(), logger: quiet, ...options });
  messengers.push(made);
  return made;
}

async function delivered(box: unknown[], limitMs = 5_000): Promise<void> {
  const started = Date.now();
  while (box.length === 0 && Date.now() - started < limitMs) await sleep(10);
}

describe('channels', () => {
  it('gives each topic one fixed channel of 43 safe characters, whatever the topic holds', async () => {
    const hostile = [
      'CKHandoff_a',
      `x"; NOTIFY "other`,
      'é'.repeat(300),
      'a\0b',
      'UPPER and lower',
    ];
    const sender = messenger({ schema: `chan_${process.pid}` });
    const channels = hostile.map((topic) => sender.channelOf(topic));
    for (const channel of channels) expect(channel).toMatch(/^dd_[0-9a-f]{40}$/);
    expect(new Set(channels).size).toBe(hostile.length);
    expect(messenger({ schema: 'other' }).channelOf(hostile[0]!)).not.toBe(channels[0]);
    const receiver = messenger({ schema: `chan_${process.pid}` });
    const boxes = hostile.map(() => [] as unknown[]);
    await Promise.all(
      hostile.map((topic, index) => receiver.subscribe(topic, (m) => boxes[index]!.push(m))),
    );
    await Promise.all(hostile.map((topic, index) => sender.publish(topic, { index })));
    await delivered(boxes.at(-1)!);
    await sleep(100);
    expect(boxes).toEqual(hostile.map((_, index) => [{ index }]));
  });

  it('drops a payload over the 1 kB message limit unparsed', async () => {
    const schema = `big_${process.pid}`;
    const [sender, receiver] = [messenger({ schema }), messenger({ schema })];
    const box: unknown[] = [];
    await receiver.subscribe('t', (message) => box.push(message));
    await sender.publish('t', { pad: 'x'.repeat(2_000) });
    await sender.publish('t', { n: 1 });
    await delivered(box);
    await sleep(100);
    expect(box).toEqual([{ n: 1 }]);
  });
});

describe('the listening connection', () => {
  it('is replaced when it goes silent (no FIN, no RST), found by its heartbeat', async () => {
    const url = postgresUrl();
    const proxy = await postgresProxy(url);
    try {
      const schema = `silent_${process.pid}`;
      const receiver = new PostgresMessenger({
        pool: pools.open(throughProxy(url, proxy)),
        schema,
        heartbeatMs: 200,
        logger: quiet,
      });
      messengers.push(receiver);
      const box: unknown[] = [];
      await receiver.subscribe('t', (message) => box.push(message));
      proxy.freeze();
      await sleep(600); // a heartbeat goes unanswered; a new session is made and listens
      const sender = messenger({ schema });
      for (let tries = 0; box.length === 0 && tries < 50; tries += 1) {
        await sender.publish('t', { n: 1 });
        await sleep(100);
      }
      expect(box[0]).toEqual({ n: 1 });
    } finally {
      await proxy.close();
    }
  });

  it('warns when a notification through the pool never reaches it (a listener behind a transaction pooler)', async () => {
    const admin = pools.open();
    const database = `ddtest_elsewhere_${process.pid}`;
    await admin.query(`DROP DATABASE IF EXISTS ${database}`);
    await admin.query(`CREATE DATABASE ${database}`);
    // Notifications stay within their database: a listener on another one hears nothing, as
    // one whose LISTEN went to a server connection a pooler lent for that statement only.
    const elsewhere = new URL(postgresUrl());
    elsewhere.pathname = `/${database}`;
    const logger = recordingLogger();
    const lost = messenger({
      logger,
      deliveryCheckMs: 300,
      listenerClient: () => new pg.Client({ connectionString: elsewhere.toString() }),
    });
    await lost.subscribe('t', () => undefined);
    await sleep(600);
    const warnings = (lines: typeof logger.lines) =>
      lines.filter((line) => line.level === 'warn').map((line) => line.message);
    expect(warnings(logger.lines).join('\n')).toMatch(/did not reach the listening connection/);

    const fineLogger = recordingLogger();
    const fine = messenger({ logger: fineLogger, deliveryCheckMs: 300 });
    await fine.subscribe('t', () => undefined);
    await sleep(600);
    expect(warnings(fineLogger.lines)).toEqual([]);
    await lost.close();
    await admin.query(`DROP DATABASE ${database} WITH (FORCE)`);
  });
});
