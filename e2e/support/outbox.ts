import fs from 'node:fs';
import path from 'node:path';

/**
 * Waits for the newest mail to `to` in the embedded outbox (DATA_DIR/outbox/*.eml) and returns
 * the first link in it that matches `pattern`.
 */
export async function linkFromOutbox(
  dataDir: string,
  to: string,
  pattern: RegExp,
  timeoutMs = 10_000,
): Promise<string> {
  const outbox = path.join(dataDir, 'outbox');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (fs.existsSync(outbox)) {
      const files = fs
        .readdirSync(outbox)
        .filter((f) => f.endsWith('.eml'))
        .map((f) => path.join(outbox, f))
        .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
      for (const file of files) {
        const text = fs.readFileSync(file, 'utf8').replace(/=\r?\n/g, '');
        if (!text.toLowerCase().includes(to.toLowerCase())) continue;
        const match = text.match(pattern);
        if (match) return match[0];
      }
    }
    if (Date.now() > deadline) throw new Error(`No mail to ${to} with a link matching ${pattern} in ${outbox}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
