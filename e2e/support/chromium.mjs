/**
 * Debian's Chromium as the browser tests, the benches and the landing media capture launch it:
 * one place for its path and the flags this machine's closed network needs.
 */

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** No sandbox (containers run as root), no GPU, and no background traffic to Google's servers. */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
