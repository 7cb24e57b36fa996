// JSON logs with pino: one line per request and per notable event, each carrying trace_id and span_id of the
// active span so a log line leads to its trace. Secrets never reach a line: request logs hold no headers or query
// strings, and the fields below are redacted wherever they appear (the request line, whose fields are fixed, excepted).
import pino, { type Logger } from 'pino';
import { trace } from '@opentelemetry/api';

export const REDACTED_FIELDS = [
  'authorization',
  '*.authorization',
  'headers',
  '*.headers',
  'apiKey',
  '*.apiKey',
  'key',
  'token',
  '*.token',
  'secret',
  '*.secret',
  'hmacKey',
  '*.hmacKey',
  'password',
  '*.password',
];

type Write = (line: string) => void;
// Lines are written to stdout in batches of up to 4 KB, and at least every 250 ms: one write per line would be one
// libuv file-system job per request, which cost the read path ~15% of its throughput (bench:readpath, info vs warn).
const stdout = pino.destination({ dest: 1, sync: false, minLength: 4096 });
setInterval(() => {
  try {
    stdout.flush();
  } catch {
    // a flush already under way, or stdout closed: the next tick or exit writes what is left
  }
}, 250).unref();
process.once('exit', () => {
  try {
    stdout.flushSync();
  } catch {
    // stdout already closed: nothing left to save
  }
});
let write: Write = (line) => void stdout.write(line);

/** Sends every log line to `to` until the returned function is called (tests that read what was logged). */
export function captureLogs(to: Write, level: pino.LevelWithSilent = 'info'): () => void {
  const previous = write;
  const previousLevel = logger.level;
  write = to;
  logger.level = level;
  requestLogger.level = level;
  return () => {
    write = previous;
    logger.level = previousLevel;
    requestLogger.level = previousLevel;
  };
}

const makeLogger = (redact: boolean): Logger =>
  pino(
    {
      level: process.env.LOG_LEVEL ?? 'info',
      base: { service: process.env.OTEL_SERVICE_NAME ?? 'property-api' },
      timestamp: pino.stdTimeFunctions.isoTime,
      messageKey: 'msg',
      formatters: { level: (label) => ({ level: label }) },
      ...(redact ? { redact: { paths: REDACTED_FIELDS, censor: '[redacted]' } } : {}),
      mixin() {
        const ctx = trace.getActiveSpan()?.spanContext();
        return ctx ? { trace_id: ctx.traceId, span_id: ctx.spanId } : {};
      },
    },
    { write: (line: string) => write(line) },
  );

export const logger: Logger = makeLogger(true);

/**
 * The one line per request (request-record.ts): its fields are fixed and never hold a secret (ids, route, status,
 * timing, account id, tier), so it skips the redaction pass every other line gets.
 */
export const requestLogger: Logger = makeLogger(false);

/** Where a process listens: always printed, whatever LOG_LEVEL says (the benchmarks read the port from it). */
export function logListening(fields: Record<string, unknown>, msg: string): void {
  logger.child({}, { level: 'info' }).info(fields, msg);
}

/** The `log({ msg, ... })` callback the workers take. */
export const logTo =
  (l: Logger = logger) =>
  (o: Record<string, unknown>): void => {
    const { msg, err, ...rest } = o;
    if (err !== undefined) l.warn({ ...rest, err }, String(msg ?? 'error'));
    else l.info(rest, String(msg ?? ''));
  };
