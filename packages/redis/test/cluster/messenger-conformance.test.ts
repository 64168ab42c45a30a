import { messengerConformance } from '@datadriver/testkit';
import { messengerHarness, redisCluster } from '../support/harnesses.js';

messengerConformance('Redis Cluster pub/sub', messengerHarness(redisCluster, false));
messengerConformance('Redis Cluster sharded pub/sub', messengerHarness(redisCluster, true));
