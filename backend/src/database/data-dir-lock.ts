import fs from 'node:fs';
import path from 'node:path';

export class DataDirLockedError extends Error {}

/**
 * An exclusive lock on the embedded database's folder. PGlite itself lets a second process
 * open the same files (and lose writes), so we refuse it here with a sentence that says what
 * to do. A lock left by a process that no longer runs is taken over.
 */
export class DataDirLock {
  private constructor(private readonly file: string) {}

  static acquire(dataDir: string): DataDirLock {
    fs.mkdirSync(dataDir, { recursive: true });
    const file = path.join(dataDir, 'botsmith.lock');
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
        return new DataDirLock(file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const holder = Number(fs.readFileSync(file, 'utf8').trim());
        if (Number.isInteger(holder) && holder > 0 && isAlive(holder)) {
          throw new DataDirLockedError(
            `The data folder ${dataDir} is in use by another Botsmith process (pid ${holder}). ` +
              'Stop that process first, or set DATA_DIR to another folder, or set DATABASE_URL to use a PostgreSQL server.',
          );
        }
        fs.rmSync(file, { force: true });
      }
    }
    throw new DataDirLockedError(`Could not lock the data folder ${dataDir}.`);
  }

  release(): void {
    try {
      if (fs.readFileSync(this.file, 'utf8').trim() === String(process.pid)) fs.rmSync(this.file, { force: true });
    } catch {
      // Already gone: nothing to release.
    }
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
