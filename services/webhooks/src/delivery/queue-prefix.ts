// BullMQ's key prefix for the delivery queue: the deployment's REDIS_PREFIX, braced in a Redis Cluster so that
// every key of the queue shares one slot (as account-billing's and the type-ahead's queues do).
export const deliveryQueuePrefix = (prefix: string, cluster: boolean) =>
  cluster ? `{${prefix}bull}` : `${prefix}bull`;
