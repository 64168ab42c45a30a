import type { Presence } from '@datadriver/core';

/**
 * A presence that reports each write as it lands. The core has no event for a successful
 * beat (only for a failed one), and the crash case needs to know when the last one landed.
 */
export class BeatRecorder implements Presence {
  readonly specificationVersion = 'v1';

  constructor(
    private readonly inner: Presence,
    private readonly landed: (key: string) => void,
  ) {}

  get processLocal(): boolean {
    return this.inner.processLocal === true;
  }

  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    await this.inner.set(key, value, ttlSeconds);
    this.landed(key);
  }

  get(key: string): Promise<string | undefined> {
    return this.inner.get(key);
  }
}
