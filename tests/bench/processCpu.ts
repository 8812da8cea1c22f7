/**
 * CPU time of named process groups, read from Linux's /proc: the deadline bench reports what share
 * of the machine the web process, the job worker, its Chromium, PostgreSQL, the load generator and
 * everything else took during a step. A group is a root process and its descendants (Chromium runs
 * under the worker; PostgreSQL's backends under its postmaster). Elsewhere than Linux it reports
 * nothing.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux). */
const TICKS = 100;

interface ProcessTimes {
  readonly name: string;
  /** utime + stime, in ticks. */
  readonly ticks: number;
}

function readTimes(pid: number): ProcessTimes | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: the fields start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return {
      name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
      ticks: Number(fields[11]) + Number(fields[12]),
    };
  } catch {
    return undefined; // gone
  }
}

/** A process's children, from each of its threads' `children` list (Linux 3.5+). */
function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8')
        .split(' ')
        .filter(Boolean)
        .map(Number),
    );
  } catch {
    return [];
  }
}

/** Total busy ticks of the machine (all cores) from /proc/stat, and the number of cores. */
function machineTicks(): { busy: number; total: number } {
  try {
    const [line] = readFileSync('/proc/stat', 'utf8').split('\n');
    const values = (line ?? '').trim().split(/\s+/).slice(1).map(Number);
    const total = values.reduce((a, b) => a + b, 0);
    const idle = (values[3] ?? 0) + (values[4] ?? 0);
    return { busy: total - idle, total };
  } catch {
    return { busy: 0, total: 0 };
  }
}

export type Groups = Readonly<Record<string, number | undefined>>;

/**
 * Accumulates each group's CPU time between `start` and `stop`, sampling every `everyMs` so that
 * processes that start and end in between (Chromium's renderers, one per print) are counted too.
 */
export class ProcessCpu {
  private readonly seen = new Map<number, { group: string; first: number; last: number }>();
  private timer: NodeJS.Timeout | undefined;
  private machineStart = machineTicks();
  private startedAt = 0;
  private elapsedMs = 0;
  private machineBusy = 0;

  constructor(
    /** Group name → root pid: a process belongs to the group of its nearest root ancestor. */
    private readonly roots: () => Groups,
    /** Processes of any group whose name matches go to this group instead (Chromium's many). */
    private readonly byName?: { readonly pattern: RegExp; readonly group: string },
    private readonly everyMs = 500,
  ) {}

  start(): void {
    this.seen.clear();
    this.machineStart = machineTicks();
    this.startedAt = performance.now();
    this.sample(true);
    this.timer = setInterval(() => this.sample(false), this.everyMs);
    this.timer.unref();
  }

  /** Stops and returns each group's CPU in cores (1 = one core busy all along), with `rest`. */
  stop(): { cores: Record<string, number>; machineCores: number } {
    this.sample(false);
    clearInterval(this.timer);
    this.elapsedMs = performance.now() - this.startedAt;
    const end = machineTicks();
    this.machineBusy = end.busy - this.machineStart.busy;
    const seconds = this.elapsedMs / 1000;
    const cores: Record<string, number> = {};
    for (const { group, first, last } of this.seen.values())
      cores[group] = (cores[group] ?? 0) + (last - first) / TICKS / seconds;
    const ours = Object.values(cores).reduce((a, b) => a + b, 0);
    cores.rest = Math.max(0, this.machineBusy / TICKS / seconds - ours);
    return { cores, machineCores: seconds > 0 ? this.machineBusy / TICKS / seconds : 0 };
  }

  /** Walks each root's tree (its own reads only: scanning all of /proc would cost the web process). */
  private sample(baseline: boolean): void {
    for (const [group, root] of Object.entries(this.roots())) {
      if (root === undefined) continue;
      const queue = [root];
      for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
        const times = readTimes(pid);
        if (!times) continue;
        queue.push(...childrenOf(pid).filter((child) => !this.isRoot(child)));
        const known = this.seen.get(pid);
        if (known) {
          known.last = times.ticks;
          continue;
        }
        const named = this.byName?.pattern.test(times.name) ? this.byName.group : group;
        // A process first seen after the start counts from 0 (it started in between).
        this.seen.set(pid, { group: named, first: baseline ? times.ticks : 0, last: times.ticks });
      }
    }
  }

  private isRoot(pid: number): boolean {
    return Object.values(this.roots()).includes(pid);
  }
}
