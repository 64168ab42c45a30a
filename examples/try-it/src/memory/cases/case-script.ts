import type { Outcome } from '../../stream.js';
import type { DemoWorld } from '../demo-world.js';

/** The story of a case, played on the paced clock once its setup is done. */
export type Story = () => Promise<Outcome>;

/** A case on the in-memory backend. */
export interface CaseScript {
  readonly id: string;
  /** Brings the servers to where the story starts; runs at once on the virtual clock. */
  setup(world: DemoWorld): Promise<Story>;
}
