/**
 * Profiles tied to a game server's players (`DataDriver.attach`): a joining player's profile
 * loads, or the player is kicked when it cannot; a leaving player's profile runs the game's
 * leave cleanups and is released. A player who leaves while loading cancels the wait.
 */
import type { MessageTarget, ProfileMessage } from '../config/options.js';
import type { DriverContext } from '../context/context.js';
import type { HostSlot } from '../context/host-slot.js';
import type { LoadHow } from '../load/load-steps.js';
import { DataDriverError, describeError, ErrorCode } from '../ports/errors.js';
import type { HostPlayer } from '../ports/host.js';
import type { SessionRegistry } from '../registry/registry.js';
import type { Profile } from '../session/profile.js';
import type { ProfileSession } from '../session/profile-session.js';

export interface AttachOptions<T extends object, P extends HostPlayer> {
  /** The profile key of a player; `player.id` by default. */
  readonly keyOf?: (player: P) => string;
  /**
   * Called once a joining player's profile is loaded. If it throws, the player is kicked with
   * the load-failed message and the profile released.
   */
  readonly onLoad?: (profile: Profile<T>, player: P) => void;
  /** The game's leave cleanups, run before the release save (also after a kick). */
  readonly onLeave?: (profile: Profile<T>, player: P) => void | Promise<void>;
  /**
   * Applies messages sent to this server's profiles (`send`) while attached, in place of the
   * driver's `onMessage`: before `onLoad`, on a sender's nudge, and before each autosave.
   */
  onMessage?(profile: MessageTarget<T>, message: ProfileMessage): void;
}

/** How a player's load is made: the driver's own load, for a player session. */
export type SessionLoader = (key: string, how: LoadHow) => Promise<ProfileSession>;

interface PlayerEntry {
  readonly key: string;
  left: boolean;
}

export class PlayerSessions<T extends object, P extends HostPlayer> {
  private readonly players = new Map<P, PlayerEntry>();

  constructor(
    private readonly context: DriverContext,
    private readonly registry: SessionRegistry,
    private readonly host: HostSlot,
    private readonly load: SessionLoader,
    private readonly options: AttachOptions<T, P>,
  ) {}

  async join(player: P): Promise<void> {
    let key: string;
    try {
      key = this.options.keyOf ? this.options.keyOf(player) : player.id;
    } catch (error) {
      this.context.logger.error(`keyOf threw for player ${String(player.id)}: ${String(error)}`);
      const message = this.context.settings.kickMessages.loadFailed;
      this.host.kick(String(player.id), player, message, 'load-failed');
      return;
    }
    const entry: PlayerEntry = { key, left: false };
    this.players.set(player, entry);
    const { settings } = this.context;
    let session: ProfileSession;
    try {
      session = await this.load(key, {
        // Player sessions wait localHandoffSeconds, else lockWaitSeconds, for this server.
        localWaitMs: settings.localHandoffMs ?? settings.lockWaitMs,
        player,
        cancelled: () => entry.left,
      });
    } catch (error) {
      if (entry.left || this.registry.closed) return;
      const locked = DataDriverError.is(error, ErrorCode.Locked);
      const messages = settings.kickMessages;
      if (locked) this.host.kick(key, player, messages.locked, 'locked');
      else this.host.kick(key, player, messages.loadFailed, 'load-failed');
      return;
    }
    if (entry.left) {
      await session.release('left').catch(() => undefined); // reported as profile.release-failed
      return;
    }
    try {
      this.options.onLoad?.(session.profile as Profile<T>, player);
    } catch (error) {
      // The game could not set the player up: they must not play on without it. Marked as
      // leaving first, so their removal runs no leave cleanups for a session never set up.
      this.context.logger.error(`onLoad threw for ${key}: ${describeError(error)}`);
      session.beginLeave();
      this.host.kick(key, player, settings.kickMessages.loadFailed, 'load-failed');
      await session.release('load-failed').catch(() => undefined); // reported as profile.release-failed
    }
  }

  async leave(player: P): Promise<void> {
    const entry = this.players.get(player);
    if (!entry) return;
    entry.left = true;
    this.players.delete(player);
    this.registry.wakeLoad(entry.key); // a waiting load notices it is cancelled
    const session = this.registry.session(entry.key);
    if (!session || session.player !== player || !session.active) return;
    session.beginLeave();
    try {
      await this.options.onLeave?.(session.profile as Profile<T>, player);
    } catch (error) {
      this.context.logger.error(`onLeave threw for ${entry.key}: ${String(error)}`);
    }
    await session.release(session.end.leaveReason).catch(() => undefined); // reported as profile.release-failed
  }
}
