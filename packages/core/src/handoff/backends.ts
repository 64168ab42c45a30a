/**
 * The backends one server's handoff runs on. Drivers of one server may keep their profiles on
 * different backends (their own store, messenger and presence); each driver's locks carry the
 * presence flag, so the server must beat on each presence and listen on each messenger its
 * drivers use. One beat per distinct presence and one subscription per distinct messenger
 * (told apart by object identity: give drivers on one backend the same port objects), kept
 * while a driver of the server uses them; the handoff's own pair is kept for its life.
 */
import type { Messenger } from '../ports/messenger.js';
import type { Presence } from '../ports/presence.js';

/** The messenger and presence one driver of the server uses. */
export interface BackendPorts {
  readonly messenger: Messenger;
  readonly presence: Presence;
}

/** What the backends keep per port: its beat or subscription, made on first use. */
export interface BackendParts<Beat, Listening> {
  beat(presence: Presence): Beat;
  listen(messenger: Messenger): Listening;
  /** A subscription no driver uses any more. */
  stop(listening: Listening): Promise<void>;
}

/** The handoff itself, as a user of its own ports. */
const OWN = Symbol('own ports');

export class HandoffBackends<Beat, Listening> {
  readonly #users = new Map<string | typeof OWN, BackendPorts>();
  readonly #beats = new Map<Presence, Beat>();
  readonly #listening = new Map<Messenger, Listening>();

  constructor(
    readonly own: BackendPorts,
    private readonly parts: BackendParts<Beat, Listening>,
  ) {
    this.add(OWN, own);
  }

  /** The ports driver `name` uses: its own if it brought any, else the handoff's. */
  portsOf(name: string): BackendPorts {
    return this.#users.get(name) ?? this.own;
  }

  /** Driver `name` uses `ports`: the server beats on its presence and listens on its messenger. */
  use(name: string, ports: BackendPorts): void {
    this.add(name, ports);
  }

  private add(name: string | typeof OWN, ports: BackendPorts): void {
    this.#users.set(name, ports);
    if (!this.#beats.has(ports.presence)) {
      this.#beats.set(ports.presence, this.parts.beat(ports.presence));
    }
    if (!this.#listening.has(ports.messenger)) {
      this.#listening.set(ports.messenger, this.parts.listen(ports.messenger));
    }
  }

  /** Driver `name` left: a port no one uses any more is no longer beaten or listened on. */
  async leave(name: string): Promise<void> {
    if (!this.#users.delete(name)) return;
    const used = [...this.#users.values()];
    for (const presence of [...this.#beats.keys()]) {
      if (!used.some((ports) => ports.presence === presence)) this.#beats.delete(presence);
    }
    const stopped: Listening[] = [];
    for (const [messenger, listening] of [...this.#listening]) {
      if (used.some((ports) => ports.messenger === messenger)) continue;
      this.#listening.delete(messenger);
      stopped.push(listening);
    }
    await Promise.all(stopped.map((listening) => this.parts.stop(listening)));
  }

  /** One beat per distinct presence. */
  get beats(): Beat[] {
    return [...this.#beats.values()];
  }

  /** One subscription per distinct messenger. */
  get listening(): Listening[] {
    return [...this.#listening.values()];
  }
}
