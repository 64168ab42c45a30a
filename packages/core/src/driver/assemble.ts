/**
 * The parts of one driver, each the one owner of its state: the registry (sessions, loads),
 * the host slot, the holder's side of handoff, and the loader. Built once, wired here.
 */

import type { DataDriverOptions } from '../config/options.js';
import { createContext, type DriverContext } from '../context/context.js';
import { HostSlot } from '../context/host-slot.js';
import { HandoffEndpoint } from '../holder/handoff-endpoint.js';
import { ReleaseRequests } from '../holder/holder-answers.js';
import { type HolderHooks, Loader } from '../load/loader.js';
import { SessionRegistry } from '../registry/registry.js';
import type { SessionHooks } from '../session/profile-session.js';

export interface DriverParts {
  readonly context: DriverContext;
  readonly registry: SessionRegistry;
  readonly host: HostSlot;
  readonly requests: ReleaseRequests;
  readonly loader: Loader;
  /** Where the handoff routes other servers' requests and the replies to this driver's. */
  readonly endpoint: HandoffEndpoint;
}

export function assemble<T extends object>(options: DataDriverOptions<T>): DriverParts {
  const endpoint = new HandoffEndpoint();
  const ctx = createContext(options, endpoint);
  const registry = new SessionRegistry(() => ctx.scheduler.now());
  const host = new HostSlot(ctx.emit);
  const requests = new ReleaseRequests(ctx, registry, host);
  const hooks: SessionHooks = {
    changed: () => registry.changed(),
    deactivated: (session, released) => {
      // A release another server asked for is that server's to load next: no snapshot here.
      registry.forget(session, session.requesters.waiting ? undefined : released);
      requests.answer(session);
    },
    lockLost: (session) => requests.kick(session, ctx.settings.kickMessages.lockLost, 'lock-lost'),
  };
  const holder: HolderHooks = {
    kick: (session, message, cause) => requests.kick(session, message, cause),
    receive: (key, requester, token) => requests.receive(key, requester, token),
  };
  endpoint.connect({ context: ctx, registry, answers: requests });
  const loader = new Loader(ctx, registry, holder, hooks);
  return { context: ctx, registry, host, requests, loader, endpoint };
}
