import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'test/**/*.test.ts',
      'charts/test/**/*.test.ts',
      'loadtests/test/**/*.test.ts',
      'shared/*/src/**/*.test.ts',
      'services/*/src/**/*.test.ts',
      'services/*/test/**/*.test.ts',
      'gateway/*/test/**/*.test.ts',
      'clients/*/test/**/*.test.ts',
    ],
    globalSetup: ['test/global-setup.ts'],
    // Every JSON response a test receives over fetch is checked against the served OpenAPI document.
    setupFiles: ['test/check-responses.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Request log lines would drown the report; the telemetry tests capture logs explicitly.
    env: { LOG_LEVEL: 'silent' },
  },
});
