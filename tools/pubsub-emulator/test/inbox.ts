import type { Message, Subscription } from '@google-cloud/pubsub';

/**
 * Collects what a real client Subscription receives. `handle` decides what to
 * do with each message (default: ack); tests then wait for a count.
 */
export class Inbox {
  readonly messages: Message[] = [];
  readonly errors: Error[] = [];

  constructor(
    readonly subscription: Subscription,
    handle: (message: Message, index: number) => void = (message) => message.ack(),
  ) {
    subscription.on('message', (message: Message) => {
      this.messages.push(message);
      handle(message, this.messages.length - 1);
    });
    // Without a listener an 'error' event would crash the test process.
    subscription.on('error', (error: Error) => this.errors.push(error));
  }

  get texts(): string[] {
    return this.messages.map((message) => message.data.toString());
  }

  async waitFor(count: number, timeoutMs = 5_000): Promise<Message[]> {
    await until(
      () => this.messages.length >= count,
      timeoutMs,
      () => {
        const errors = this.errors.map((error) => error.message).join('; ');
        return `expected ${count} messages on ${this.subscription.name}, got [${this.texts}]; errors: ${errors}`;
      },
    );
    return this.messages;
  }

  close(): Promise<void> {
    return this.subscription.close();
  }
}

export async function until(
  condition: () => boolean,
  timeoutMs: number,
  describe: () => string,
): Promise<void> {
  const give = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > give) throw new Error(`timed out: ${describe()}`);
    await sleep(10);
  }
}

export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));
