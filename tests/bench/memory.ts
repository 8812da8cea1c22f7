/**
 * Resident memory of the bench's processes, read from Linux's /proc (elsewhere: unknown). The deadline
 * bench reports the web process and the job worker at the start and the end of a run; the worker's
 * figure includes the Chromium it runs (its descendants), where a long run's growth would show.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Resident memory of one process in MB, or undefined when unknown or gone. */
export function rssMb(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** The processes below `root` (children, their children, …). */
function descendantsOf(root: number): number[] {
  let parents: Map<number, number>;
  try {
    parents = new Map(
      readdirSync('/proc')
        .filter((entry) => /^\d+$/.test(entry))
        .flatMap((entry) => {
          try {
            const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
            return [[Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])]];
          } catch {
            return []; // gone
          }
        }) as [number, number][],
    );
  } catch {
    return [];
  }
  const found: number[] = [];
  let level = [root];
  while (level.length > 0) {
    const next = [...parents].filter(([, ppid]) => level.includes(ppid)).map(([pid]) => pid);
    found.push(...next);
    level = next;
  }
  return found;
}

/**
 * Resident memory of a process and everything below it, in MB. Chromium's processes share pages,
 * so this sum overstates what they use together; it is compared with itself (start and end).
 */
export function treeRssMb(root: number | undefined): number | undefined {
  const own = rssMb(root);
  if (root === undefined || own === undefined) return own;
  return descendantsOf(root).reduce((sum, pid) => sum + (rssMb(pid) ?? 0), own);
}

/** `label N MB`, or `label ?` when unknown. */
export function memoryText(label: string, mb: number | undefined): string {
  return mb === undefined ? `${label} ?` : `${label} ${mb.toFixed(0)} MB`;
}

/**
 * The web process's and the worker's (with its Chromium) memory at named points of a run. Growth is
 * read from the first point after the worker has settled (its start-up and Chromium's first launch
 * come in the first step) to the end.
 */
export class MemoryReport {
  private readonly samples: { label: string; web?: number; worker?: number }[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly pids: () => { web: number; worker?: number | undefined }) {}

  /** Also samples every minute until `stop` (a long run's trend, not only its two ends). */
  everyMinute(): void {
    let minutes = 0;
    this.timer = setInterval(() => this.sample(`${++minutes} min`), 60_000);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  sample(label: string): void {
    const { web, worker } = this.pids();
    this.samples.push({ label, web: rssMb(web), worker: treeRssMb(worker) });
  }

  /** `memory (RSS): web process … MB, worker with its Chromium … MB at <label>; …`. */
  text(): string {
    const points = this.samples.map(
      (s) =>
        `${memoryText('web process', s.web)}, ${memoryText('worker with its Chromium', s.worker)} at ${s.label}`,
    );
    return `memory (RSS): ${points.join('; ')}`;
  }
}
