/**
 * The names one Redis run uses: fresh for every run, so runs never meet (two tabs playing at
 * once, a replay, keys a stopped demo left behind), and read back as the page's "A", "B", "p1".
 */
import { randomBytes } from 'node:crypto';

/** The player every case plays, as the page names them. */
export const PLAYER = 'p1';

export class RunNames {
  /** `try-it-<random>`: every name of the run starts with it. */
  readonly prefix: string;

  constructor(id: string = randomBytes(4).toString('hex')) {
    this.prefix = `try-it-${id}`;
  }

  /** The player's user id, which is also their profile key. */
  get user(): string {
    return `${this.prefix}-${PLAYER}`;
  }

  /** Server `label`'s jobId. */
  jobId(label: string): string {
    return `${this.prefix}-${label}`;
  }

  /** The page's name for a name of this run ("A", "p1"); any other text as it is. */
  labelOf(name: string): string {
    return name.startsWith(`${this.prefix}-`) ? name.slice(this.prefix.length + 1) : name;
  }
}
