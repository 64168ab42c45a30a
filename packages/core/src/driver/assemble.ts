/**
 * The parts of one driver, each the one owner of its state: the context, the registry
 * (sessions, loads), the host slot, the holder's answers and its handoff endpoint, and the
 * loader. Built once, wired here: the loader reaches the holder's side only through the hooks
 * given here, and the handoff reaches this driver only through the endpoint.
 */
import type { DataDriverOptions } from '../config/options.js';
import { createContext, type DriverContext } from '../context/context.js';
import { HostSlot } from '../context/host-slot.js';
import { HandoffEndpoint } from '../holder/handoff-endpoint.js';
import { HolderAnswers } from '../holder/holder-answers.js';
import type { HolderHooks } from '../load/load-steps.js';
import { Loader } from '../load/loader.js';
import { SessionRegistry } from '../registry/registry.js';
import type { ProfileSession } from '../session/profile-session.js';
import type { SessionHooks } from '../session/session-terms.js';

export interface DriverParts {
  readonly context: DriverContext;
  readonly registry: SessionRegistry;
  readonly host: HostSlot;
  readonly answers: HolderAnswers;
  readonly loader: Loader;
  /** Where the handoff routes other servers' requests and the replies to this driver's. */
  readonly endpoint: HandoffEndpoint;
}

export function assemble<T extends object>(options: DataDriverOptions<T>): DriverParts {
  const endpoint = new HandoffEndpoint();
  const context = createContext(options, endpoint);
  const registry = new SessionRegistry(() => context.scheduler.now());
  const host = new HostSlot(context.emit);
  const answers = new HolderAnswers(context, registry, host);
  const hooks: SessionHooks<ProfileSession> = {
    changed: () => registry.changed(),
    deactivated: (session, released) => {
      // A release another server asked for is that server's to load next: no snapshot here.
      registry.forget(session, session.requesters.waiting ? undefined : released);
      answers.answer(session, released);
    },
    lockLost: (session) =>
      answers.kick(session, context.settings.kickMessages.lockLost, 'lock-lost'),
  };
  const holder: HolderHooks = {
    kick: (session, message, cause) => answers.kick(session, message, cause),
    receive: (key, requester, token, reason, handTo) =>
      answers.receive(key, requester, token, reason, handTo),
  };
  endpoint.connect({ context, registry, answers });
  context.messageHandlers.nudgeHere = (key) => {
    const session = registry.session(key);
    if (!session?.active) return false;
    session.messages.request(() => session.pass('nudge'));
    return true;
  };
  const loader = new Loader(context, registry, holder, hooks);
  return { context, registry, host, answers, loader, endpoint };
}
