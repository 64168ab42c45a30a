/**
 * `--faults`: a demo and test tool, never for production. The server's store and presence are
 * wrapped in core's fault decorators, and a client on this machine can make them misbehave:
 *
 *   POST /faults          a FaultRequest (fault-request.ts)      -> { "id": 1 }
 *   POST /faults/release  lets stalled calls proceed and removes every injected fault
 *                                                                 -> { "removed": 1 }
 *
 * The Try it page uses it to play a failed or stalling save on real processes.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Presence, Store } from '@datadriver/core';
import { FaultyPresence, FaultyStore, type InjectedFault } from '@datadriver/core/testing';
import { parseFaultRequest } from './fault-request.js';
import { readBody, reply } from './http-json.js';

export class FaultControls {
  readonly store: FaultyStore;
  readonly presence: FaultyPresence;
  private readonly injected = new Set<InjectedFault>();
  private nextId = 1;

  constructor(store: Store, presence: Presence) {
    this.store = new FaultyStore(store);
    this.presence = new FaultyPresence(presence);
  }

  /** Injects the fault `body` describes; returns its id. Throws a RangeError on a bad body. */
  inject(body: unknown): number {
    const { port, ...spec } = parseFaultRequest(body);
    this.injected.add((port === 'store' ? this.store : this.presence).faults.inject(spec));
    return this.nextId++;
  }

  /** Lets every stalled call proceed and removes every fault; returns how many there were. */
  removeAll(): number {
    const count = this.injected.size;
    for (const fault of this.injected) fault.remove();
    this.injected.clear();
    return count;
  }

  /** Serves `POST /faults` and `POST /faults/release`; false for any other request. */
  async route(request: IncomingMessage, response: ServerResponse): Promise<boolean> {
    if (request.method !== 'POST') return false;
    if (request.url === '/faults/release') {
      reply(response, 200, { removed: this.removeAll() });
      return true;
    }
    if (request.url !== '/faults') return false;
    try {
      reply(response, 200, { id: this.inject(JSON.parse(await readBody(request))) });
    } catch (error) {
      reply(response, 400, { error: error instanceof Error ? error.message : String(error) });
    }
    return true;
  }
}
