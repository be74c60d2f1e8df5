import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useMenu, Menu } from './Menu';

// jsdom has no layout: the trigger and the menu get the boxes a browser would give them.
interface Box {
  top: number;
  left: number;
  width: number;
  height: number;
}
function layOut(boxes: { trigger: Box; menu: Box }) {
  return vi.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(function (this: Element) {
    const b = this.getAttribute('role') === 'menu' ? boxes.menu : this.matches('[aria-haspopup]') ? boxes.trigger : { top: 0, left: 0, width: 0, height: 0 };
    return { ...b, x: b.left, y: b.top, right: b.left + b.width, bottom: b.top + b.height, toJSON: () => b } as DOMRect;
  });
}

function Trigger() {
  const menu = useMenu('Choices', [
    { label: 'One', onSelect: () => {} },
    { label: 'Two', onSelect: () => {} },
  ]);
  return (
    <>
      <button type="button" {...menu.triggerProps}>
        Open
      </button>
      {menu.menu}
    </>
  );
}

async function openAt(triggerTop: number, menuHeight = 150) {
  // jsdom's window is 1024×768.
  const spy = layOut({ trigger: { top: triggerTop, left: 100, width: 80, height: 24 }, menu: { top: 0, left: 0, width: 200, height: menuHeight } });
  render(<Trigger />);
  await userEvent.click(screen.getByRole('button', { name: 'Open' }));
  const menu = screen.getByRole('menu', { name: 'Choices' });
  spy.mockRestore();
  return menu;
}

afterEach(() => vi.restoreAllMocks());

describe('Menu placement', () => {
  it('opens below its trigger when it fits there', async () => {
    const menu = await openAt(100);
    expect(menu).toHaveClass('menu-below');
    // 4 px under the trigger's bottom edge (100 + 24).
    expect(menu.style.top).toBe('128px');
    expect(menu.style.left).toBe('100px');
  });

  it('opens above a trigger near the bottom of the window instead of covering it', async () => {
    const menu = await openAt(700);
    expect(menu).toHaveClass('menu-above');
    // Its bottom edge ends 4 px above the trigger's top: 700 - 4 - 150.
    expect(menu.style.top).toBe('546px');
    expect(parseFloat(menu.style.top) + 150).toBeLessThanOrEqual(700);
  });

  it('takes the larger side for a menu too tall for either, keeping its top on screen', async () => {
    const tall = await openAt(600, 700);
    expect(tall).toHaveClass('menu-above');
    expect(tall.style.top).toBe('4px');
  });

  it('a menu at a point (right-click) is only kept inside the window', () => {
    layOut({ trigger: { top: 0, left: 0, width: 0, height: 0 }, menu: { top: 0, left: 0, width: 200, height: 150 } });
    render(<Menu label="Row" items={[{ label: 'Rename', onSelect: () => {} }]} position={{ x: 990, y: 700 }} onClose={() => {}} />);
    const menu = screen.getByRole('menu', { name: 'Row' });
    expect(menu).not.toHaveClass('menu-above');
    expect(menu).not.toHaveClass('menu-below');
    expect(menu.style.top).toBe(`${768 - 150 - 4}px`);
    expect(menu.style.left).toBe(`${1024 - 200 - 4}px`);
  });
});
