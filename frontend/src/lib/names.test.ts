import { describe, expect, it } from 'vitest';
import { escapeName } from './names';

describe('escapeName', () => {
  it.each([
    ['src/main.go', 'src/main.go'],
    ['docs/café 日本 🎉.md', 'docs/café 日本 🎉.md'],
    ['a\n[secret.txt#ABCD] x', 'a\\n[secret.txt#ABCD] x'],
    ['a\rb\tc', 'a\\rb\\tc'],
    ['a\u001b[31mred', 'a\\x1b[31mred'],
    ['a\u007fb', 'a\\x7fb'],
    ['a\\nb', 'a\\\\nb'],
    ['invoice\u202eexe.txt', 'invoice\\u202eexe.txt'],
    ['a\u2066b\u2069', 'a\\u2066b\\u2069'],
    ['pass\u200bwd\ufeff', 'pass\\u200bwd\\ufeff'],
    ['a\u2028b', 'a\\u2028b'],
    ['a\u0085b', 'a\\u0085b'],
  ])('escapes %j as the host does', (name, want) => {
    expect(escapeName(name)).toBe(want);
  });

  it('returns a clean name as it is', () => {
    const name = 'frontend/src/lib/names.ts';
    expect(escapeName(name)).toBe(name);
  });
});
