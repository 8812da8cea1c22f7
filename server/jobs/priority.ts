/**
 * The job worker runs below the web processes (D116): an applicant's save comes before a PDF, and
 * the PDFs of a peak are printed in the quiet after it. The worker and everything it starts
 * (Chromium, the conversion sandbox) run at a low scheduling priority, inherited by children.
 *
 * Chromium raises some of its own threads to nice -8 when it may, which a process running as root
 * may (CAP_SYS_NICE): on Linux, as root, the worker is started through util-linux's `setpriv`
 * without that capability, so nothing under it can take a higher priority than it was given.
 */
import { existsSync } from 'node:fs';
import os from 'node:os';

/**
 * Nice 10: against a busy web process the worker gets about a tenth of a core (CFS weights 110 to
 * 1024), so saves come first and PDFs still move on a machine that is never idle (nice 19, about
 * 1.5 %, starved the worker of a loaded test machine).
 */
export const WORKER_NICE = os.constants.priority.PRIORITY_BELOW_NORMAL;

const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => existsSync(p));

/** The command that starts `command args` unable to raise any priority (as root on Linux). */
export function withoutPriorityRaise(command: string, args: string[]): [string, string[]] {
  const root = process.platform === 'linux' && process.getuid?.() === 0;
  if (!root || !SETPRIV) return [command, args];
  return [
    SETPRIV,
    ['--bounding-set', '-sys_nice', '--inh-caps', '-sys_nice', '--', command, ...args],
  ];
}

/** Lowers a process (by default this one) to the worker's priority; false where not permitted. */
export function lowerPriority(pid = 0): boolean {
  try {
    os.setPriority(pid, WORKER_NICE);
    return true;
  } catch {
    return false;
  }
}
