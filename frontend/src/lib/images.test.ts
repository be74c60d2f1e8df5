import { describe, expect, it } from 'vitest';
import { providerList } from '../bridge/normalize';
import { acceptsImages, attachmentSrc, imageAlt, sessionProfile, thumbSize } from './images';

const hash = '0123456789abcdef'.repeat(4);

describe('attachmentSrc', () => {
  it('names the route of a 64-hex hash and nothing else', () => {
    expect(attachmentSrc({ sha256: hash })).toBe(`/_attachments/${hash}`);
    for (const bad of ['', hash.toUpperCase(), hash.slice(1), `${hash}0`, `../${hash.slice(3)}`, `${hash.slice(1)}/`, 'javascript:alert(1)']) {
      expect(attachmentSrc({ sha256: bad }), bad).toBeNull();
    }
  });
});

describe('thumbSize', () => {
  it.each([
    [{ width: 1280, height: 800 }, { width: 256, height: 160 }],
    [{ width: 100, height: 50 }, { width: 100, height: 50 }], // never enlarged
    [{ width: 10, height: 4000 }, { width: 1, height: 160 }], // at least a pixel wide
    [{ width: 0, height: 50 }, null],
    [{ width: 50, height: -1 }, null],
  ])('%o fits %o', (ref, want) => {
    expect(thumbSize(ref)).toEqual(want);
  });
});

describe('imageAlt', () => {
  it('names the tool and the size when known', () => {
    expect(imageAlt('Screenshot', { width: 1280, height: 800 })).toBe('Image from Screenshot (1280×800)');
    expect(imageAlt('', { width: 0, height: 0 })).toBe('Image from a tool');
  });
});

describe('acceptsImages and sessionProfile', () => {
  const list = providerList({
    providers: [
      { id: 'a', name: 'A', imagesByDefault: true },
      { id: 'b', name: 'B', imagesByDefault: true, supportsImages: false, isDefault: true },
      { id: 'c', name: 'C', imagesByDefault: false, supportsImages: true },
    ],
  });
  it('follows the explicit choice, else the default for the model', () => {
    expect(list.providers.map(acceptsImages)).toEqual([true, false, true]);
  });
  it('picks the session\'s provider, else the default, else the first', () => {
    expect(sessionProfile(list, 'c')?.id).toBe('c');
    expect(sessionProfile(list, '')?.id).toBe('b');
    expect(sessionProfile(list, 'gone')?.id).toBe('b');
    expect(sessionProfile(providerList({ providers: [{ id: 'x' }, { id: 'y' }] }), '')?.id).toBe('x');
    expect(sessionProfile(providerList({ providers: [] }), '')).toBeUndefined();
  });
});
