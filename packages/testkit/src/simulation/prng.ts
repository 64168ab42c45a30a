/**
 * A small seeded pseudo-random generator (mulberry32): the same seed draws the same run on
 * every machine, with no dependency. Not for cryptography.
 */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('Random.pick from an empty list');
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** One name, drawn in proportion to its weight. */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K {
    const entries = Object.entries(weights) as Array<[K, number]>;
    const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
    let roll = this.next() * total;
    for (const [name, weight] of entries) {
      roll -= weight;
      if (roll < 0) return name;
    }
    return entries[entries.length - 1]![0];
  }

  /**
   * An independent stream derived from this seed: the workload and the faults draw from
   * separate streams, so a change to one does not reshuffle the other.
   */
  static stream(seed: number, name: string): Random {
    let hash = seed >>> 0;
    for (let index = 0; index < name.length; index += 1) {
      hash = Math.imul(hash ^ name.charCodeAt(index), 0x9e3779b1) >>> 0;
    }
    return new Random(hash);
  }
}
