// Default task queue name; deployments override it with TEMPORAL_TASK_QUEUE and tests use a
// fresh queue per test file so parallel files never steal each other's tasks.
export const DEFAULT_TASK_QUEUE = 'dubbing';
