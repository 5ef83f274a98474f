import { execFileSync } from 'node:child_process';
import { closeSync, fstatSync, ftruncateSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A real, tiny filesystem (tmpfs) for fault tests: it fills up for real (ENOSPC from the kernel, SQLITE_FULL
 * from SQLite). Mounting needs root (or CAP_SYS_ADMIN); `mountTinyDisk`
 * says why it cannot instead of throwing, so a test can skip with that message.
 */
export interface TinyDisk {
  dir: string;
  /** Takes all free space but `leaveBytes` with a filler file. */
  fill(leaveBytes?: number): void;
  /** Removes the filler: space returns. */
  free(): void;
  unmount(): void;
}

export function mountTinyDisk(megabytes: number): TinyDisk | { reason: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'selfie-mosaic-tiny-disk-'));
  const filler = path.join(dir, 'filler');
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    return { reason: `cannot mount a ${megabytes} MB tmpfs (needs root): ${stderr || (error as Error).message}` };
  }
  return {
    dir,
    fill(leaveBytes = 0) {
      // Grows the filler until the kernel refuses (a server may be writing meanwhile), then gives back
      // `leaveBytes`. tmpfs counts whole pages, so less than a page may stay free.
      const fd = openSync(filler, 'a');
      try {
        for (let chunk = 1024 * 1024; chunk >= 4096; ) {
          try {
            writeSync(fd, Buffer.alloc(chunk));
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
            chunk /= 2;
          }
        }
        if (leaveBytes > 0) ftruncateSync(fd, Math.max(0, fstatSync(fd).size - leaveBytes));
      } finally {
        closeSync(fd);
      }
    },
    free() {
      rmSync(filler, { force: true });
    },
    unmount() {
      // Lazy: a server that has just closed may still hold its database file for a moment.
      execFileSync('umount', ['-l', dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
