/** Processes as /proc shows them, for the suites that check which processes a stop leaves behind. */
import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';

interface ProcessEntry {
  readonly pid: number;
  readonly ppid: number;
  readonly command: string;
}

async function processes(): Promise<ProcessEntry[]> {
  const entries: ProcessEntry[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    if (!stat) continue;
    // The parent pid is the second field after the parenthesised command name.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const command = (await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '')).replaceAll(
      '\0',
      ' ',
    );
    entries.push({ pid: Number(entry), ppid, command });
  }
  return entries;
}

/** The command lines of a process's direct children. */
export async function childCommands(parent: number): Promise<string[]> {
  return (await processes()).filter((p) => p.ppid === parent).map((p) => p.command);
}

/** Every process below `root` (children, their children, …) with its command line. */
export async function descendants(root: number): Promise<ProcessEntry[]> {
  const all = await processes();
  const found: ProcessEntry[] = [];
  let parents = new Set([root]);
  while (parents.size > 0) {
    const next = all.filter((p) => parents.has(p.ppid));
    found.push(...next);
    parents = new Set(next.map((p) => p.pid));
  }
  return found;
}

/** Whether a process still runs (a zombie, dead but not yet reaped by its parent, does not). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}
