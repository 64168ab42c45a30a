/**
 * The holder's half of the physical limit run between two processes: on each request it does
 * one conditional write (the release) and publishes the reply. No DataDriver: only the round
 * trips a hand-over cannot avoid.
 *
 *   node dist/processes/limit-holder-main.js '<LimitHolderArgs as JSON>'
 *
 * Prints {"type":"ready"} once subscribed; exits when its stdin closes.
 */
import { createInterface } from 'node:readline';
import { type WriteStore, writerOn } from '../measure/conditional-writes.js';
import { type Bus, messengerOn } from '../measure/messenger-pairs.js';

export interface LimitHolderArgs {
  readonly bus: Bus;
  readonly store: WriteStore;
  readonly requestTopic: string;
  readonly replyTopic: string;
  readonly key: string;
}

const args = JSON.parse(process.argv[2] ?? '{}') as LimitHolderArgs;
const { messenger, close } = messengerOn(args.bus);
const writer = await writerOn(args.store, args.key);
await messenger.subscribe(args.requestTopic, (message) => {
  const { n } = message as { n: number };
  writer
    .write()
    .then(() => messenger.publish(args.replyTopic, { T: 'R', D: 'PlayerData', K: 'bench', n }))
    .catch((error: unknown) => process.stderr.write(`limit holder: ${String(error)}\n`));
});
process.stdout.write(`${JSON.stringify({ type: 'ready' })}\n`);
createInterface({ input: process.stdin }).on('close', async () => {
  writer.close();
  await close();
  process.exit(0);
});
