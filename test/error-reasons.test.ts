// status.reason is a closed list (ERROR_STATUS in shared/core/src/errors.ts; issue 35). Walks it: every reason is
// given by at least one refusal of the code (an ApiError, a sendError, the plugin's exits, kong.yml's own answers)
// and asserted by at least one test that makes a real request or call produce it, or is declared unused here on
// purpose with why. A reason nothing gives would be a promise to clients the API never keeps; a reason no test
// asserts could be renamed or lost without notice.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ErrorReason } from '@pra/core/contracts';
import { ERROR_REASONS, ERROR_STATUS, type ErrorReason as Reason } from '@pra/core/errors';

const root = fileURLToPath(new URL('../', import.meta.url));

/** Reasons no path gives, each with why it is declared anyway. None today. */
const DECLARED_UNUSED: Partial<Record<Reason, string>> = {};

function files(dir: string, keep: (path: string) => boolean): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return ['node_modules', 'dist', '.git', '.data'].includes(e.name) ? [] : files(path, keep);
    return keep(path) ? [path] : [];
  });
}

const isTest = (p: string) => /\.test\.ts$/.test(p);
const self = fileURLToPath(import.meta.url);
/** The code that answers requests: every src/ of the services, shared packages and gateways, and Kong's config. */
const sources = ['shared', 'services', 'gateway']
  .flatMap((d) => files(join(root, d), (p) => (/\/src\/.*\.ts$/.test(p) && !isTest(p)) || p.endsWith('kong.yml')))
  .map((p) => {
    const text = readFileSync(p, 'utf8');
    // errors.ts holds the list itself: only what follows it (the reason of a bare status) gives a reason.
    const given = p.endsWith(join('core', 'src', 'errors.ts'))
      ? text.slice(text.indexOf('export type ErrorReason'))
      : text;
    return { path: relative(root, p), text: given };
  });
const tests = ['shared', 'services', 'gateway', 'clients', 'test']
  .flatMap((d) => files(join(root, d), isTest))
  .filter((p) => p !== self)
  .map((p) => ({ path: relative(root, p), text: readFileSync(p, 'utf8') }));

/** As code gives a reason: a quoted literal ('x', "x", or kong.yml's JSON "reason":"x"). */
const given = (reason: Reason, text: string) => new RegExp(`['"]${reason}['"]`).test(text);

describe('the closed list of error reasons', () => {
  it('is the enum the OpenAPI document declares, each reason with one HTTP status of an error', () => {
    expect(ErrorReason.options).toEqual(ERROR_REASONS);
    for (const r of ERROR_REASONS) expect(ERROR_STATUS[r], r).toBeGreaterThanOrEqual(400);
  });

  it('walks every reason: given by the code and asserted by a test, or declared unused on purpose', () => {
    expect(sources.length).toBeGreaterThan(50);
    expect(tests.length).toBeGreaterThan(50);
    const missing: string[] = [];
    for (const reason of ERROR_REASONS) {
      const by = sources.filter((s) => given(reason, s.text)).map((s) => s.path);
      const checked = tests.filter((t) => given(reason, t.text)).map((t) => t.path);
      if (DECLARED_UNUSED[reason]) {
        // Declared unused: then nothing may give it (else the declaration is stale).
        if (by.length > 0) missing.push(`${reason}: declared unused but given by ${by.join(', ')}`);
        continue;
      }
      if (by.length === 0) missing.push(`${reason}: no refusal gives it`);
      if (checked.length === 0) missing.push(`${reason}: no test asserts it`);
    }
    expect(missing).toEqual([]);
  });

  it('is listed in docs/api.md, each reason with its status', () => {
    const doc = readFileSync(join(root, 'docs', 'api.md'), 'utf8');
    const unlisted = ERROR_REASONS.filter((r) => !doc.includes(`| \`${r}\` | ${ERROR_STATUS[r]} |`));
    expect(unlisted).toEqual([]);
  });

  it('notices a reason nothing gives', () => {
    // The walk's own matcher, on texts made up here: a literal is found, a longer name is not.
    expect(given('not_found', "throw new ApiError('not_found', 'x')")).toBe(true);
    expect(given('not_found', '{"status":{"code":404,"reason":"not_found"}}')).toBe(true);
    expect(given('not_found', "new ApiError('not_found_anywhere', 'x')")).toBe(false);
  });
});
