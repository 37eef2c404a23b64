// Every `/methodology#id` link in src/ lands on a heading of docs/methodology.md: the Methodology page
// renders that text with rehype-slug, which gives each heading the id github-slugger makes of its
// text (repeats numbered -1, -2, ... in order), as a forge does for the same file.
import { readFile, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import GithubSlugger from 'github-slugger';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The heading texts of a Markdown text, in order, outside fenced code, inline marks taken off. */
export function markdownHeadings(markdown: string): string[] {
  const headings: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.split('\n')) {
    const f = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (f) {
      if (fence === null) fence = f[1]![0]!;
      else if (f[1]![0] === fence) fence = null;
      continue;
    }
    const h = fence === null ? /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line) : null;
    if (h) headings.push(h[1]!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*]|(^|\s)_|_(\s|$)/g, '$1$2'));
  }
  return headings;
}

/** The ids rehype-slug gives the headings of `markdown`. */
export function headingIds(markdown: string): string[] {
  const slugger = new GithubSlugger();
  return markdownHeadings(markdown).map((h) => slugger.slug(h));
}

/** `file:line #id` of every `/methodology#id` in the .ts and .tsx files under `dir`. */
async function methodologyAnchors(dir: string): Promise<Array<{ at: string; id: string }>> {
  const anchors: Array<{ at: string; id: string }> = [];
  const files = (await readdir(dir, { recursive: true })).filter((f) => /\.tsx?$/.test(f)).sort();
  for (const file of files) {
    const lines = (await readFile(join(dir, file), 'utf8')).split('\n');
    lines.forEach((line, i) => {
      for (const m of line.matchAll(/\/methodology#([^\s"'`)<>]+)/g)) {
        anchors.push({ at: `${relative(ROOT, join(dir, file))}:${i + 1}`, id: decodeURIComponent(m[1]!) });
      }
    });
  }
  return anchors;
}

describe('links to the methodology', () => {
  it('slugs headings as rehype-slug does', () => {
    expect(headingIds("# Methodology\n## A unit's prices and figures\n```\n# not a heading\n```\n### Low-confidence (thin) units\n## `code` and *marks*\n## Rounding\n## Rounding"))
      .toEqual(['methodology', 'a-units-prices-and-figures', 'low-confidence-thin-units', 'code-and-marks', 'rounding', 'rounding-1']);
  });

  it('point each at a heading docs/methodology.md has', async () => {
    const ids = new Set(headingIds(await readFile(join(ROOT, 'docs/methodology.md'), 'utf8')));
    expect(ids).toContain('per-comparison-unit');
    const anchors = await methodologyAnchors(join(ROOT, 'src'));
    expect(anchors.length).toBeGreaterThan(5);
    expect(anchors.filter((a) => !ids.has(a.id)).map((a) => `${a.at} #${a.id}`)).toEqual([]);
  });
});
