// Markdown tables and the sections each benchmark returns.

export interface BenchSection {
  title: string;
  /** Prose before the table: what is measured and against what. */
  intro: string;
  headers: string[];
  rows: string[][];
  /** Prose after the table: targets, caveats. */
  notes: string[];
}

export function markdownTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const escapeCell = (cell: string): string => cell.replace(/\|/g, '\\|');
  const lines = [
    `| ${headers.map(escapeCell).join(' | ')} |`,
    `|${headers.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${row.map(escapeCell).join(' | ')} |`),
  ];
  return lines.join('\n');
}

export function renderSection(section: BenchSection): string {
  const parts = [`## ${section.title}`, '', section.intro, '', markdownTable(section.headers, section.rows)];
  if (section.notes.length > 0) parts.push('', ...section.notes.map((n) => `- ${n}`));
  return `${parts.join('\n')}\n`;
}
