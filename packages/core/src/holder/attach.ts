/**
 * `attach`: ties a game server's players to profiles. A joining player's profile loads (or the
 * player is kicked when it cannot), a leaving player's is released; handoff turns on by the
 * default rule. Everything that can refuse runs before anything changes: a refused attach
 * leaves no identity, host slot or handoff behind.
 */
import type { AnyMessageHandler } from '../config/settings.js';
import type { DriverContext } from '../context/context.js';
import type { HostSlot } from '../context/host-slot.js';
import type { Loader } from '../load/loader.js';
import { DataDriverError, ErrorCode } from '../ports/errors.js';
import type { Host, HostPlayer } from '../ports/host.js';
import type { SessionRegistry } from '../registry/registry.js';
import { checkHostJobId } from '../rules/keys.js';
import { type AttachOptions, PlayerSessions } from './player-sessions.js';

/** Attaches `host`; returns a function that detaches. */
export function attachHost<T extends object, P extends HostPlayer>(
  parts: {
    readonly context: DriverContext;
    readonly registry: SessionRegistry;
    readonly host: HostSlot;
    readonly loader: Loader;
  },
  host: Host<P>,
  options: AttachOptions<T, P>,
): () => void {
  const { context, registry, host: slot, loader } = parts;
  if (slot.attached) {
    throw new DataDriverError(ErrorCode.InvalidConfig, `${context.name} is already attached`);
  }
  checkHostJobId(host.jobId);
  const turnHandoffOn = context.link.prepareAttach(host.jobId);
  context.identity.attachTo(host.jobId);
  slot.set(host as unknown as Host<HostPlayer>);
  turnHandoffOn();
  const load = loader.load.bind(loader);
  const players = new PlayerSessions<T, P>(context, registry, slot, load, options);
  const offMessages = context.messageHandlers.attach(
    options.onMessage as AnyMessageHandler | undefined,
  );
  const offAdded = host.onPlayerAdded((player) => void players.join(player));
  const offRemoving = host.onPlayerRemoving((player) => void players.leave(player));
  for (const player of host.players?.() ?? []) void players.join(player);
  return () => {
    offAdded();
    offRemoving();
    offMessages();
    slot.set(undefined);
  };
}
