import { presenceConformance } from '@datadriver/testkit';
import { presenceHarness, redisCluster } from '../support/harnesses.js';

presenceConformance('Redis Cluster', presenceHarness(redisCluster), { scan: true });
