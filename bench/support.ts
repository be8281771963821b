/** Shared helpers of the benchmarks: timing, memory, and one result format. */
import fs from 'node:fs';

export interface Measurement {
  name: string;
  value: number;
  unit: string;
}

export function rssMb(): number {
  return Math.round(process.memoryUsage().rss / (1024 * 1024));
}

/** Resident memory of a process from /proc (MB): now, its peak (VmHWM), and now split into anonymous and file-backed pages. */
export interface ProcessMemory {
  rss: number;
  peak: number;
  anon: number;
  file: number;
}

/** null once the process has gone. */
export function processMemory(pid: number | 'self' = 'self'): ProcessMemory | null {
  let status: string;
  try {
    status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return null;
  }
  const mb = (field: string) => Math.round(Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024);
  return { rss: mb('VmRSS'), peak: mb('VmHWM'), anon: mb('RssAnon'), file: mb('RssFile') };
}

/** Resident memory (MB) of a process and all its descendants now: a child it spawned counts against the same machine. */
export function treeRssMb(pid: number): number {
  let total = processMemory(pid)?.rss ?? 0;
  for (const child of childPids(pid)) total += treeRssMb(child);
  return total;
}

function childPids(pid: number): number[] {
  try {
    return fs
      .readdirSync(`/proc/${pid}/task`)
      .flatMap((task) => fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' '))
      .filter((s) => s.trim() !== '')
      .map(Number);
  } catch {
    return [];
  }
}

// Every bench reports the peak resident memory of its own process (the service it runs included)
// as it exits, so `npm run bench` shows the peak under each load; bench/run.ts collects the lines.
process.once('exit', () => {
  const memory = processMemory();
  if (memory) process.stdout.write(`\npeak resident memory of this bench process (VmHWM): ${memory.peak} MB\n`);
});

export async function timed<T>(fn: () => Promise<T>): Promise<{ result: T; seconds: number }> {
  const started = performance.now();
  const result = await fn();
  return { result, seconds: (performance.now() - started) / 1000 };
}

/** The value at fraction `p` (0.5: the median) of ascending `sorted`. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

export function report(title: string, lines: Array<[string, string]>): void {
  const width = Math.max(...lines.map(([label]) => label.length));
  process.stdout.write(`\n## ${title}\n`);
  for (const [label, value] of lines) process.stdout.write(`  ${label.padEnd(width)}  ${value}\n`);
}

export const fmt = (n: number, digits = 0): string =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/**
 * CPU seconds used so far by this process's threads, in three groups: the main (JavaScript)
 * thread; chDB's own threads (its query pipelines, merges and schedulers: ThreadPool,
 * MergeMutate, …); and Node's other threads, which Linux names all alike: the libuv pool (where
 * chDB's statements are called from, and zlib runs) and V8's garbage-collection and compiler
 * helpers. From /proc (Linux only; an empty result elsewhere).
 */
export interface ThreadCpu {
  main: number;
  engine: number;
  nodeHelpers: number;
}

export function threadCpuSeconds(): ThreadCpu {
  const cpu: ThreadCpu = { main: 0, engine: 0, nodeHelpers: 0 };
  let tasks: string[];
  try {
    tasks = fs.readdirSync('/proc/self/task');
  } catch {
    return cpu;
  }
  for (const tid of tasks) {
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // the thread ended
    }
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    // The fields after the name start at the 3rd of the line (state); utime and stime are the 14th and 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const seconds = (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
    if (tid === String(process.pid)) cpu.main += seconds;
    else if (name === 'node') cpu.nodeHelpers += seconds;
    else cpu.engine += seconds;
  }
  return cpu;
}

/** USER_HZ: Linux reports thread times in ticks of 1/100 s on every architecture Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;
