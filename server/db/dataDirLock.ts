/**
 * One process per embedded database (D195). PGlite has no lock of its own: two processes on one
 * data directory each keep their own copy of its pages and write them back, so a second start
 * (which migrates, seeds, and then finds its port taken) could leave a directory that no later
 * start opens. The process that opens DATA_DIR/pgdata writes DATA_DIR/pgdata.lock first (its pid,
 * and on Linux its start time, so a pid used again by another process is not taken for it), and
 * removes it when it closes the database or exits; any other process is refused while that one
 * lives. The lock of a process that is gone (killed) is taken over.
 */
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const LOCK_FILE = 'pgdata.lock';

/** Another living process has the data directory's database open. */
export class DataDirInUse extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The data directory ${dataDir} is in use by another process (pid ${pid}): stop that process, or start with another DATA_DIR.`,
    );
    this.name = 'DataDirInUse';
  }
}

interface Holder {
  readonly pid: number;
  /** /proc/<pid>/stat's start time (Linux), to tell the holder from a later process of its pid. */
  readonly started?: string;
}

/** The lock files this process holds (a second open in the same process is refused too). */
const held = new Set<string>();

/** A process's start time in clock ticks since boot, where /proc tells it. */
function startTimeOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After the command name in parentheses: state is field 3, the start time field 22.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function parse(text: string): Holder | undefined {
  try {
    const holder = JSON.parse(text) as Partial<Holder>;
    return Number.isSafeInteger(holder.pid) && (holder.pid as number) > 0
      ? { pid: holder.pid as number, started: holder.started }
      : undefined;
  } catch {
    return undefined;
  }
}

function alive(holder: Holder, file: string): boolean {
  // This process's pid: its own open database, or a lock left by an earlier process of that pid.
  if (holder.pid === process.pid) return held.has(file);
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: it lives, as another user.
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  const started = startTimeOf(holder.pid);
  return holder.started === undefined || started === undefined || started === holder.started;
}

function readIfThere(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Takes the lock of `dataDir` (which exists), or throws DataDirInUse. Returns its release, which
 * is also run when the process exits.
 */
export function lockDataDir(dataDir: string): () => void {
  const file = path.join(dataDir, LOCK_FILE);
  const mine = JSON.stringify({ pid: process.pid, started: startTimeOf(process.pid) });
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(file, mine, { flag: 'wx', mode: 0o600 });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 10) throw error;
    }
    const text = readIfThere(file);
    if (text === undefined) continue;
    const holder = parse(text);
    if (holder && alive(holder, file)) throw new DataDirInUse(dataDir, holder.pid);
    // Empty: another process has just created it and is writing its pid.
    if (text === '' && attempt < 3) {
      pause(50);
      continue;
    }
    // Its process is gone: removed, unless another process took it over meanwhile.
    if (readIfThere(file) === text) unlinkSync(file);
  }
  held.add(file);
  const release = () => {
    if (!held.delete(file)) return;
    process.off('exit', release);
    try {
      if (readFileSync(file, 'utf8') === mine) unlinkSync(file);
    } catch {
      // Already gone.
    }
  };
  process.once('exit', release);
  return release;
}
