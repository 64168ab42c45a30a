import type { ClusterBackend } from './backend.js';
import { Cluster } from './cluster.js';

/**
 * Runs `run` on a fresh cluster over `backend`, and closes the cluster however it ends.
 * `title` names the cluster's waits in the log (the test's name by default).
 */
export async function withCluster(
  backend: ClusterBackend,
  run: (cluster: Cluster) => Promise<void>,
  title?: string,
): Promise<void> {
  const cluster = new Cluster(backend, title);
  try {
    await run(cluster);
  } finally {
    await cluster.close();
  }
}
