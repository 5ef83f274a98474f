import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

const benchmarksFile = resolve(import.meta.dirname, '../../BENCHMARKS.md');

const preamble = `# Benchmarks

Written by \`npm run bench\`; each section is replaced by the benchmark that owns it. The machines are
shared and noisy (2 cores), so figures are medians and ratios measured in one run, not absolute truths.
`;

/** Replaces the section between `<!-- name:start -->` and `<!-- name:end -->`, appending it when absent. */
export function writeSection(name: string, body: string): void {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const block = `${start}\n${body.trim()}\n${end}`;
  const text = existsSync(benchmarksFile) ? readFileSync(benchmarksFile, 'utf8') : preamble;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  const next =
    from >= 0 && to > from
      ? text.slice(0, from) + block + text.slice(to + end.length)
      : `${text.trimEnd()}\n\n${block}\n`;
  writeFileSync(benchmarksFile, next);
}

export function median(values: number[]): number {
  return percentile(values, 50);
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

export function table(header: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

export function machine(): string {
  return `Node ${process.version}, ${process.platform}/${process.arch}, measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
