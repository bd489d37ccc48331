import { readdirSync, readFileSync } from 'node:fs';

// Which programs a process is running right now, read from /proc (Linux), so a scenario can
// strike while a given engine is at work.

/** The command names (comm) of the direct children of `pid`. */
export function childCommands(pid: number): { pid: number; command: string }[] {
  const children: { pid: number; command: string }[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // it exited while we looked
    }
    // "pid (comm) state ppid ...": comm may hold spaces or parentheses, so split at the last ')'.
    const close = stat.lastIndexOf(')');
    const command = stat.slice(stat.indexOf('(') + 1, close);
    const ppid = Number(stat.slice(close + 2).split(' ')[1]);
    if (ppid === pid) children.push({ pid: Number(entry), command });
  }
  return children;
}
