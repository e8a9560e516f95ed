// Counters and histograms recorded from the daemon's first request on, without a metrics library: a map entry per
// label set. They are written in the Prometheus text format 0.0.4 (the format `GET /metrics` serves, docs/deploy.md
// §Metrics), the same samples prom-client writes for its own counters and histograms: `name{labels} value`,
// histogram buckets cumulative with `le` up to `+Inf`, then `_sum` and `_count`.

interface CounterEntry {
  labels: readonly string[];
  value: number;
}

interface HistogramEntry {
  labels: readonly string[];
  /** Observations per bucket, not cumulative; one slot past the last bound for the values above it. */
  counts: number[];
  sum: number;
  count: number;
}

/** The key of a label set: its values, which never hold a NUL (methods, route patterns, status codes). */
const keyOf = (labels: readonly string[]): string => labels.join('\u0000');

export class CounterTable {
  private readonly entries = new Map<string, CounterEntry>();

  constructor(
    readonly name: string,
    private readonly help: string,
    private readonly labelNames: readonly string[],
  ) {
    // A counter without labels is written as 0 before anything is counted, as prom-client does.
    if (labelNames.length === 0) this.entries.set('', { labels: [], value: 0 });
  }

  inc(labels: readonly string[], by = 1): void {
    const key = keyOf(labels);
    const entry = this.entries.get(key);
    if (entry === undefined) this.entries.set(key, { labels, value: by });
    else entry.value += by;
  }

  exposition(): string {
    let text = header(this.name, this.help, 'counter');
    for (const entry of this.entries.values()) {
      text += `${this.name}${labelText(this.labelNames, entry.labels)} ${entry.value}\n`;
    }
    return text;
  }
}

export class HistogramTable {
  private readonly entries = new Map<string, HistogramEntry>();

  constructor(
    readonly name: string,
    private readonly help: string,
    private readonly labelNames: readonly string[],
    private readonly bounds: readonly number[],
  ) {
    if (labelNames.length === 0) this.entries.set('', this.emptyEntry([]));
  }

  observe(labels: readonly string[], value: number): void {
    const key = keyOf(labels);
    let entry = this.entries.get(key);
    if (entry === undefined) {
      entry = this.emptyEntry(labels);
      this.entries.set(key, entry);
    }
    let bucket = 0;
    while (bucket < this.bounds.length && value > this.bounds[bucket]!) bucket++;
    entry.counts[bucket]! += 1;
    entry.sum += value;
    entry.count += 1;
  }

  exposition(): string {
    let text = header(this.name, this.help, 'histogram');
    const leNames = [...this.labelNames, 'le'];
    for (const entry of this.entries.values()) {
      let cumulative = 0;
      for (const [index, bound] of this.bounds.entries()) {
        cumulative += entry.counts[index]!;
        text += `${this.name}_bucket${labelText(leNames, [...entry.labels, String(bound)])} ${cumulative}\n`;
      }
      text += `${this.name}_bucket${labelText(leNames, [...entry.labels, '+Inf'])} ${entry.count}\n`;
      const labels = labelText(this.labelNames, entry.labels);
      text += `${this.name}_sum${labels} ${entry.sum}\n${this.name}_count${labels} ${entry.count}\n`;
    }
    return text;
  }

  private emptyEntry(labels: readonly string[]): HistogramEntry {
    return { labels, counts: new Array<number>(this.bounds.length + 1).fill(0), sum: 0, count: 0 };
  }
}

function header(name: string, help: string, type: string): string {
  return `# HELP ${name} ${help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}\n# TYPE ${name} ${type}\n`;
}

function labelText(names: readonly string[], values: readonly string[]): string {
  if (names.length === 0) return '';
  const pairs = names.map((name, index) => `${name}="${escapeLabelValue(values[index] ?? '')}"`);
  return `{${pairs.join(',')}}`;
}

function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}
