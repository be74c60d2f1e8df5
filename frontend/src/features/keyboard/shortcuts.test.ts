import { describe, expect, it } from 'vitest';
import { ariaShortcut, formatShortcut, isMacPlatform, matchShortcut, SHORTCUTS, shortcutFor, typingTarget } from './shortcuts';

const key = (code: string, over: Partial<{ key: string; ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean }> = {}) => ({
  code,
  key: over.key ?? code,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...over,
});

describe('shortcut table', () => {
  it('has one entry per command and no two entries on the same keys', () => {
    const ids = SHORTCUTS.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    const keys = SHORTCUTS.map((s) => `${s.mod}|${s.shift}|${s.alt}|${s.code}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it.each([
    ['palette', false, 'Ctrl+K'],
    ['palette', true, '⌘K'],
    ['nextSession', false, 'Ctrl+Shift+]'],
    ['nextSession', true, '⌘⇧]'],
    ['settings', false, 'Ctrl+,'],
    ['toggleActivity', true, '⌘⇧A'],
    ['shortcuts', false, '?'],
    ['shortcuts', true, '?'],
  ] as const)('prints %s (mac %s) as %s', (id, mac, want) => {
    expect(formatShortcut(shortcutFor(id), mac)).toBe(want);
  });

  it('names the keys for aria-keyshortcuts', () => {
    expect(ariaShortcut(shortcutFor('palette'), false)).toBe('Control+K');
    expect(ariaShortcut(shortcutFor('toggleChanges'), true)).toBe('Meta+Shift+G');
  });

  it.each([
    ['Ctrl+K off macOS', key('KeyK', { ctrlKey: true }), false, 'palette'],
    ['Cmd+K on macOS', key('KeyK', { metaKey: true }), true, 'palette'],
    ['Ctrl+K on macOS is not Mod', key('KeyK', { ctrlKey: true }), true, null],
    ['Cmd+K off macOS is not Mod', key('KeyK', { metaKey: true }), false, null],
    ['Ctrl+Shift+] whatever the key prints', key('BracketRight', { key: '}', ctrlKey: true, shiftKey: true }), false, 'nextSession'],
    ['Ctrl+] lacks Shift', key('BracketRight', { ctrlKey: true }), false, null],
    ['Ctrl+Shift+K has an extra Shift', key('KeyK', { ctrlKey: true, shiftKey: true }), false, null],
    ['Ctrl+Alt+K has an extra Alt', key('KeyK', { ctrlKey: true, altKey: true }), false, null],
    ['? by its character', key('Slash', { key: '?', shiftKey: true }), false, 'shortcuts'],
    ['? on a layout where it is elsewhere', key('Minus', { key: '?', shiftKey: true }), false, 'shortcuts'],
    ['Ctrl+? is not the overlay', key('Slash', { key: '?', shiftKey: true, ctrlKey: true }), false, null],
    ['a plain letter', key('KeyK', { key: 'k' }), false, null],
    ['Ctrl+.', key('Period', { key: '.', ctrlKey: true }), false, 'stop'],
  ] as const)('%s', (_name, e, mac, want) => {
    expect(matchShortcut(e, mac)).toBe(want);
  });

  it.each([
    ['darwin', true],
    ['darwin/arm64', true],
    ['MacIntel', true],
    ['linux', false],
    ['windows', false],
  ])('platform %s is macOS: %s', (p, want) => {
    expect(isMacPlatform(p)).toBe(want);
  });

  it('knows which targets take typed text', () => {
    const text = document.createElement('input');
    const box = document.createElement('input');
    box.type = 'checkbox';
    const area = document.createElement('textarea');
    const button = document.createElement('button');
    expect([typingTarget(text), typingTarget(box), typingTarget(area), typingTarget(button), typingTarget(null)]).toEqual([true, false, true, false, false]);
  });
});
