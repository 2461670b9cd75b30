// CPU time a process has used (user + system), from /proc/<pid>/stat. The benchmark divides the
// server's CPU time during a measurement by the requests served: a cost per request that the
// machine's other load disturbs far less than req/s does.
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** Seconds of CPU used so far by `pid`. */
export function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}
