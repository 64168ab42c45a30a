/**
 * The parts of one driver, each the one owner of its state: the registry (sessions, loads),
 * the host slot, the holder's side of handoff, and the loader. Built once, wired here.
 */
import { ReleaseRequests } from '../holder/release-requests.js';
import { Loader } from '../load/loader.js';
import type { SessionHooks } from '../session/session-terms.js';
import type { DriverContext } from './context.js';
import { HostSlot } from './host-slot.js';
import { SessionRegistry } from './registry.js';

export interface DriverParts {
  readonly registry: SessionRegistry;
  readonly host: HostSlot;
  readonly requests: ReleaseRequests;
  readonly loader: Loader;
}

export function assemble(ctx: DriverContext): DriverParts {
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
  return { registry, host, requests, loader: new Loader(ctx, registry, requests, hooks) };
}
