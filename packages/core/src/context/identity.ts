/**
 * The id a driver writes into its locks, fixed on first use. It is the configured one (the
 * `jobId` option, or the `Handoff` given), else the host's once attached, else one random id
 * per process. A load fixes it: a driver that wrote a lock under one id and then took another
 * would find its own lock as another server's, so attaching a host of another id after the
 * first load is refused. The driver also holds its name over its store under this id: two
 * drivers of one name over one store on one server would each read the other's lock as this
 * server's orphaned lock and take it, so the second refuses (the seed says they collide). Two
 * store objects over one backend are not told apart here; the registry's process-wide lock
 * tokens keep the second from taking the first's locks (`SessionRegistry.holdsToken`).
 */
import { DataDriverError, ErrorCode } from '../ports/errors.js';
import { flatString } from '../ports/flat-string.js';
import type { Store } from '../ports/store.js';

/** One id per process run: a server without a host or a test jobId still needs one. */
const PROCESS_JOB_ID = flatString(globalThis.crypto.randomUUID());

/** The driver holding each (jobId, name) over each store. Dies with the store. */
const claims = new WeakMap<Store, Map<string, object>>();

const claimKey = (jobId: string, name: string): string => JSON.stringify([jobId, name]);

export class ServerIdentity {
  #jobId: string;
  #configured: boolean;
  #used = false;
  #claimed: string | undefined;

  constructor(
    private readonly store: Store,
    private readonly name: string,
    private readonly owner: object,
    configured: string | undefined,
  ) {
    this.#configured = configured !== undefined;
    this.#jobId = configured ?? PROCESS_JOB_ID;
    this.claim(this.#jobId);
  }

  /** This server's id as of now (what events are stamped with). */
  get jobId(): string {
    return this.#jobId;
  }

  /** The id a lock is written under: from now on it never changes. */
  use(): string {
    this.#used = true;
    return this.#jobId;
  }

  /**
   * The host's id becomes this server's, unless one was configured. Refused once a lock was
   * written under another id.
   */
  attachTo(hostJobId: string): void {
    if (hostJobId === '' || this.#configured || hostJobId === this.#jobId) return;
    if (this.#used) {
      throw new DataDriverError(
        ErrorCode.InvalidConfig,
        `${this.name} already wrote locks as server ${this.#jobId}; attach the host (jobId ${hostJobId}) before the first load, or give the driver jobId ${hostJobId}`,
        { details: { jobId: this.#jobId, hostJobId } },
      );
    }
    this.claim(hostJobId);
    this.#jobId = hostJobId;
  }

  /** Frees the driver's name on this server (close). */
  release(): void {
    if (this.#claimed === undefined) return;
    const held = claims.get(this.store);
    if (held?.get(claimKey(this.#claimed, this.name)) === this.owner) {
      held.delete(claimKey(this.#claimed, this.name));
    }
    this.#claimed = undefined;
  }

  /** Holds the driver's name over its store on server `jobId`, or refuses. */
  private claim(jobId: string): void {
    let held = claims.get(this.store);
    if (!held) {
      held = new Map();
      claims.set(this.store, held);
    }
    const holder = held.get(claimKey(jobId, this.name));
    if (holder !== undefined && holder !== this.owner) {
      throw new DataDriverError(
        ErrorCode.InvalidConfig,
        `a second DataDriver named ${this.name} over the same store on server ${jobId}: the two would take each other's locks. Close the first one (close() frees the name), give this one another name (its records are then separate), or another jobId`,
        { details: { name: this.name, jobId } },
      );
    }
    this.release();
    held.set(claimKey(jobId, this.name), this.owner);
    this.#claimed = jobId;
  }
}
