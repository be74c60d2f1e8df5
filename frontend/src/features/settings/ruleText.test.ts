import { describe, expect, it } from 'vitest';
import { commandRuleRow } from '../../test/fakeBridge';
import { groupRules, ownerText, ruleString, splitWords } from './ruleText';

describe('rule words', () => {
  it.each([
    ['git status', ['git', 'status']],
    ['  git   push  --force ', ['git', 'push', '--force']],
    ['rm\t-rf', ['rm', '-rf']],
    ['', []],
    ['   ', []],
  ])('splits %j into its words', (text, words) => {
    expect(splitWords(text)).toEqual(words);
  });

  it('says a rule as the card does', () => {
    expect(ruleString(commandRuleRow('r', 'git push --force', { decision: 'deny', scope: 'project' }))).toBe('deny git push --force (project)');
    expect(ruleString(commandRuleRow('r', 'npm'))).toBe('allow npm (global)');
  });

  it('names where a rule applies', () => {
    expect(ownerText(commandRuleRow('r', 'ls'))).toBe('Global');
    expect(ownerText(commandRuleRow('r', 'ls', { scope: 'project', projectId: 'p1', projectName: 'alpha', projectPath: '/work/alpha' }))).toBe('Project alpha (/work/alpha)');
    expect(ownerText(commandRuleRow('r', 'ls', { scope: 'project', projectId: 'p9' }))).toBe('Project p9 (gone)');
    expect(ownerText(commandRuleRow('r', 'ls', { scope: 'session', sessionId: 's1', sessionTitle: 'Fix it' }))).toBe('Session Fix it');
    expect(ownerText(commandRuleRow('r', 'ls', { scope: 'session', sessionId: 's1' }))).toBe('Session s1');
  });
});

describe('groupRules', () => {
  const g = commandRuleRow('g', 'git status');
  const p1 = commandRuleRow('p1r', 'make', { scope: 'project', projectId: 'p1' });
  const p2 = commandRuleRow('p2r', 'make', { scope: 'project', projectId: 'p2' });
  const s1 = commandRuleRow('s1r', 'go test', { scope: 'session', sessionId: 's1' });
  const s2 = commandRuleRow('s2r', 'go test', { scope: 'session', sessionId: 's2' });
  const all = [g, p1, p2, s1, s2];

  it('puts the current session and project rules apart from the others', () => {
    expect(groupRules(all, 's1', 'p1')).toEqual({ session: [s1], project: [p1], global: [g], elsewhere: [p2, s2] });
  });

  it('with no session or project in view, only global rules apply', () => {
    expect(groupRules(all, '', '')).toEqual({ session: [], project: [], global: [g], elsewhere: [p1, p2, s1, s2] });
  });
});
