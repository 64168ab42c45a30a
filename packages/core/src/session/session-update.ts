/**
 * A session's saves and its release, run through one guarded update. Its writes run one after
 * another (the session's write queue starts each once the one before settled, and a guarded
 * update's runs must), so the update's transform and callbacks, three closures and their scope,
 * are made once a session rather than once a write: they were a quarter of a save's garbage.
 * Each run is given its write (`DataWrite`): its lock rule, its record, where it lands.
 */
import type { DriverContext } from '../context/context.js';
import type { StoreSnapshot } from '../ports/store.js';
import type { ProfileRecord } from '../rules/index.js';
import { GuardedUpdate, type Written } from './guarded-write.js';
import type { DataWrite } from './session-writes.js';

export class SessionUpdate extends GuardedUpdate<unknown, void> {
  /** The write under way, or the last one: set as each run starts, with its `keepVersion`. */
  #write: DataWrite<unknown> | undefined;
  override keepVersion: boolean | undefined = undefined;

  constructor(private readonly session: { readonly key: string; readonly storeKey: string }) {
    super();
  }

  /** `write`, after the session's last write (`expected`, its snapshot), once it settled. */
  run<D>(
    context: Pick<DriverContext, 'store' | 'keys'>,
    write: DataWrite<D>,
    expected: StoreSnapshot | undefined,
  ): Promise<void> {
    this.#write = write as DataWrite<unknown>;
    this.keepVersion = write.keepVersion;
    return this.update(context, expected);
  }

  get key(): string {
    return this.session.key;
  }

  get storeKey(): string {
    return this.session.storeKey;
  }

  get what(): string {
    return this.#current().what;
  }

  decide(record: ProfileRecord | undefined): unknown {
    return this.#current().decide(record);
  }

  next(record: ProfileRecord | undefined, decision: unknown): ProfileRecord | undefined {
    return this.#current().next(record, decision);
  }

  protected settled(written: Written<unknown>): void {
    this.#current().settled(written);
  }

  #current(): DataWrite<unknown> {
    const write = this.#write;
    if (write === undefined) throw new Error('a session update ran with no write');
    return write;
  }
}
