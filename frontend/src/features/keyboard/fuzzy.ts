// Fuzzy matching for the palette: every typed character must appear in order
// (case-insensitive); runs of adjacent characters, word starts and an early first
// match score higher.

/** A score (higher is better), or null when text does not match query. */
export function fuzzyScore(query: string, text: string): number | null {
  const q = query.trim().toLowerCase();
  if (q === '') return 0;
  const t = text.toLowerCase();
  let score = 0;
  let from = 0;
  let prev = -2;
  for (const ch of q) {
    if (ch === ' ') continue;
    const at = t.indexOf(ch, from);
    if (at < 0) return null;
    score += 1;
    if (at === prev + 1) score += 3;
    if (at === 0 || /[\s\-_/.:(]/.test(t[at - 1]!)) score += 2;
    prev = at;
    from = at + 1;
  }
  // A whole-substring match beats scattered letters; earlier beats later.
  const sub = t.indexOf(q);
  if (sub >= 0) score += 5 + (sub === 0 ? 5 : 0);
  return score - Math.min(t.length, 100) / 100;
}

/** The items that match, best first; ties keep their order. */
export function fuzzyFilter<T>(items: readonly T[], query: string, text: (item: T) => string): T[] {
  if (query.trim() === '') return [...items];
  const scored: Array<{ item: T; score: number; i: number }> = [];
  items.forEach((item, i) => {
    const score = fuzzyScore(query, text(item));
    if (score !== null) scored.push({ item, score, i });
  });
  scored.sort((a, b) => b.score - a.score || a.i - b.i);
  return scored.map((s) => s.item);
}
