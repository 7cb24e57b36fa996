export * from './settings.js';
export * from './sdk.js';
export * from './metrics.js';
export * from './trace-context.js';
export * from './logger.js';
export * from './request-record.js';
export * from './internal-server.js';
export * from './otlp-sink.js';
