import { describe, expect, it } from 'vitest';
import { PROMPT_TITLE_CHARS, groupTitle, promptOf, rollbackEffect } from './wording';

describe('rollbackEffect', () => {
  it.each([
    ['added', 3, 0, 'Deletes CHANGELOG.md, which the agent created.'],
    ['deleted', 0, 4, 'Recreates CHANGELOG.md with the content it had before the agent deleted it.'],
    ['modified', 2, 1, 'Restores the previous content of CHANGELOG.md (undoes 2 added lines and 1 removed line).'],
    ['modified', 1, 0, 'Restores the previous content of CHANGELOG.md (undoes 1 added line and 0 removed lines).'],
  ])('%s +%i −%i', (status, additions, deletions, want) => {
    expect(rollbackEffect({ path: 'CHANGELOG.md', status, additions, deletions })).toBe(want);
  });

  it('escapes control characters in the name', () => {
    expect(rollbackEffect({ path: 'a\nb.txt', status: 'added', additions: 1, deletions: 0 })).not.toContain('\n');
  });
});

describe('groupTitle', () => {
  it.each([
    ['no prompt', '', 'Message 3'],
    ['blank prompt', '  \n ', 'Message 3'],
    ['short prompt on one line', 'Add a\nchangelog', 'Add a changelog'],
  ])('%s', (_name, prompt, want) => {
    expect(groupTitle(prompt, 3)).toBe(want);
  });

  it('cuts a long prompt at a word and marks the cut', () => {
    const prompt = 'Update the release notes for version two and then rename every helper in the utilities folder';
    const t = groupTitle(prompt, 1);
    expect(t.endsWith('…')).toBe(true);
    expect(t.length).toBeLessThanOrEqual(PROMPT_TITLE_CHARS + 1);
    expect(prompt.startsWith(t.slice(0, -1))).toBe(true);
    expect(prompt[t.length - 1]).toBe(' ');
  });
});

describe('promptOf', () => {
  const index = { 'c:call2': 'by call', 'm:msg1': 'by message', 't:turn1': 'by turn' };
  it.each([
    ['a tool call wins', { messageId: 'msg1', toolCallIds: ['nope', 'call2'] }, 'by call'],
    ['then the message', { messageId: 'msg1', toolCallIds: ['nope'] }, 'by message'],
    ['then a turn (command changes)', { messageId: 'x', turnIds: ['turn1'] }, 'by turn'],
    ['nothing known', { messageId: 'x' }, ''],
  ])('%s', (_name, keys, want) => {
    expect(promptOf(index, keys)).toBe(want);
  });
});
