// One string for each distinct diagnostic text of a scan: the same note ("frontmatter is not valid YAML …") is made
// anew for every SKILL.md that earns it, and at 10,000 skills 4,500 equal copies of one note weighed 0.7 MiB in a heap
// snapshot (docs/memory.md "Repeated diagnostics"). The table lives as long as one scan of a directory and holds at most
// MAX_TEXTS texts, so a directory of distinct messages cannot grow it without bound.

import { flattened } from './flat-string.js';

export const MAX_TEXTS = 256;

export class TextIntern {
  private readonly texts = new Map<string, string>();

  /** The first string equal to `text` seen by this table (flat), or `text` once the table is full. */
  intern(text: string): string {
    const known = this.texts.get(text);
    if (known !== undefined) return known;
    if (this.texts.size >= MAX_TEXTS) return text;
    // A note is built by concatenation: the kept copy is flat, the pieces go.
    const flat = flattened(text);
    this.texts.set(flat, flat);
    return flat;
  }

  /** `texts` with each replaced by its shared copy; an empty list as it is. */
  internAll(texts: readonly string[]): readonly string[] {
    return texts.length === 0 ? texts : texts.map((text) => this.intern(text));
  }

  get size(): number {
    return this.texts.size;
  }
}
