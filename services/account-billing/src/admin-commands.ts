// The admin CLI's commands (npm run admin -- <command>): the usage text it prints, and the README's list of them.
// No import: the CLI's help loads nothing more than this.

/** Every command: its arguments and what it does. */
export const ADMIN_COMMANDS: readonly (readonly [command: string, args: string, what: string])[] = [
  [
    'create-account',
    '--email E --name N --tier T',
    'a new account (tiers: free, basic, starter, growth, pro, scale, enterprise)',
  ],
  ['issue-key', '--account A [--marketplace]', 'a new API key for the account, printed once'],
  ['list-keys', '--account A', "the account's keys (prefixes only)"],
  ['disable-key', '--key K', 'refuse a key (403) from now on'],
  ['enable-key', '--key K', 'accept a disabled key again'],
  ['grant', '--account A (--plan P | --amount N) [--valid-days D]', "add credits: a plan's records or an amount"],
  [
    'set-limits',
    '--account A [--rate N|default] [--quota N|default]',
    "per-account rate (per minute) and daily quota, one or both: default is the tier's, a flag left out unchanged",
  ],
  ['show', '--account A', 'balance, usage and account, as /usage reports them'],
  ['help', '', 'this list'],
];

/** The usage text: one line per command. A is an account id or email; K a key id. */
export function adminUsage(): string {
  const width = Math.max(...ADMIN_COMMANDS.map(([c, a]) => `${c} ${a}`.length));
  return [
    'usage: npm run admin -- <command> (A: an account id or email; K: a key id)',
    ...ADMIN_COMMANDS.map(([c, a, what]) => `  ${`${c} ${a}`.trim().padEnd(width)}   ${what}`),
  ].join('\n');
}
