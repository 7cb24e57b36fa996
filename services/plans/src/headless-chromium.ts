// A real headless Chromium (Debian's `chromium` package) driven from its command line: the rendered DOM of a page
// after its scripts ran, or a screenshot. Used by the /docs test and `npm run docs:screenshot`.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/** The Chromium on this machine (CHROMIUM_PATH, or a usual place), or null. */
export function findChromium(): string | null {
  const given = process.env.CHROMIUM_PATH;
  if (given) return existsSync(given) ? given : null;
  return CANDIDATES.find((c) => existsSync(c)) ?? null;
}

function run(chromium: string, args: string[]): Promise<string> {
  const base = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'];
  return new Promise((resolve, reject) => {
    execFile(chromium, [...base, ...args], { maxBuffer: 64 << 20, timeout: 60_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${chromium} failed: ${err.message}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

/** The page's DOM once its scripts have run (up to `budgetMs` of virtual time). */
export const renderedDom = (chromium: string, url: string, budgetMs = 20_000) =>
  run(chromium, [`--virtual-time-budget=${budgetMs}`, '--dump-dom', url]);

/** Saves a PNG of the page at the given size. */
export const screenshot = (chromium: string, url: string, file: string, size = '1280,1800', budgetMs = 20_000) =>
  run(chromium, [
    `--virtual-time-budget=${budgetMs}`,
    `--window-size=${size}`,
    '--hide-scrollbars',
    `--screenshot=${file}`,
    url,
  ]);
