/**
 * The holder's half of the message measurements, in a process of its own (the sender is the
 * bench process), all-Redis:
 *
 * - `driver`: a server (in-process-server.ts) with an `onMessage` that adds a gift's coins,
 *   holding `key`; prints `{"type":"applied","ids":[...],"at":<wall ms>}` on each
 *   `message.applied` for it (the pass's write known committed).
 * - `floor`: no DataDriver. On each message on `topic` it does one compare-and-set of its
 *   profile record (the cheapest conditional write, conditional-writes.ts) and prints
 *   `{"type":"applied","n":<n>,"at":<wall ms>}`.
 *
 *   node dist/processes/message-holder-main.js '<MessageHolderArgs as JSON>'
 *
 * Prints {"type":"ready"} once it holds the profile (or is subscribed); answers each line on
 * its stdin with {"type":"clock","at":<wall ms>} (the bench's measure of this process's clock
 * against its own, message-holder.ts); exits when its stdin closes. Times are wall-clock
 * milliseconds (`wallNow`).
 */
import { createInterface } from 'node:readline';
import { writerOn } from '../measure/conditional-writes.js';
import { redisPorts, startServer } from '../measure/in-process-server.js';
import { messengerOn } from '../measure/messenger-pairs.js';
import { wallNow } from '../measure/wall-clock.js';

export interface MessageHolderArgs {
  readonly mode: 'driver' | 'floor';
  readonly redisUrl: string;
  /** The server's job id (driver mode): the sender's nudge is addressed to it. */
  readonly jobId: string;
  /** The profile it holds (driver mode), or the record it writes (floor mode). */
  readonly key: string;
  /** The floor's request topic. */
  readonly topic: string;
}

const args = JSON.parse(process.argv[2] ?? '{}') as MessageHolderArgs;
const report = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);
const close = args.mode === 'driver' ? await holdProfile() : await answerFloor();
report({ type: 'ready' });
const input = createInterface({ input: process.stdin });
input.on('line', () => report({ type: 'clock', at: wallNow() }));
input.on('close', async () => {
  await close();
  process.exit(0);
});

async function holdProfile(): Promise<() => Promise<void>> {
  const ports = redisPorts(args.redisUrl);
  const server = startServer({
    jobId: args.jobId,
    ports,
    onMessage: (profile, message) => {
      profile.data.coins += (message.body as { coins: number }).coins;
    },
  });
  const driver = server.drivers[0]!;
  driver.on((event) => {
    if (event.type === 'message.applied' && event.key === args.key) {
      report({ type: 'applied', ids: event.ids, at: wallNow() });
    }
  });
  const profile = await driver.load(args.key);
  return async () => {
    await profile.release().catch(() => undefined);
    await server.close();
    await ports.close();
  };
}

async function answerFloor(): Promise<() => Promise<void>> {
  const own = messengerOn({ kind: 'redis', url: args.redisUrl });
  const writer = await writerOn({ kind: 'redis', url: args.redisUrl }, args.key);
  await own.messenger.subscribe(args.topic, (message) => {
    const { n } = message as { n: number };
    writer
      .write()
      .then(() => report({ type: 'applied', n, at: wallNow() }))
      .catch((error: unknown) => process.stderr.write(`message holder: ${String(error)}\n`));
  });
  return async () => {
    writer.close();
    await own.close();
  };
}
