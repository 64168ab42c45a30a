import { memoryBackend } from '../src/cluster/index.js';
import { runHandoffScenarios, runLifecycleScenarios } from '../src/index.js';

runHandoffScenarios('the in-memory backend and the virtual clock', () => memoryBackend());
runLifecycleScenarios('the in-memory backend and the virtual clock', () => memoryBackend());
