import { execFileSync } from 'node:child_process';

/**
 * Raises the open-file limit of process `pid` (this one by default) to `n` with `prlimit`
 * (children started afterwards inherit it); false when that is not allowed (no root, or no
 * `CAP_SYS_RESOURCE`): then `ulimit -n` applies. Many open streams need many sockets.
 */
export function raiseFdLimit(n: number, pid = process.pid): boolean {
  try {
    execFileSync('prlimit', ['--pid', String(pid), `--nofile=${n}:${n}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
