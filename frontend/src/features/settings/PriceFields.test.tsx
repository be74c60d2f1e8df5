import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { PriceFields, parsePrices, priceDraft } from './PriceFields';

describe('PriceFields', () => {
  it('parses only the prices set, and refuses one out of range', () => {
    expect(parsePrices({ input: ' 3 ', output: '', cacheWrite: '0', cacheRead: '0.3' })).toEqual({ input: 3, cacheWrite: 0, cacheRead: 0.3 });
    expect(parsePrices({ input: '-1', output: '', cacheWrite: '', cacheRead: '' })).toBeNull();
    expect(parsePrices({ input: 'x', output: '', cacheWrite: '', cacheRead: '' })).toBeNull();
    expect(parsePrices({ input: '', output: '10001', cacheWrite: '', cacheRead: '' })).toBeNull();
  });

  it('starts from the saved overrides', () => {
    expect(priceDraft(null)).toEqual({ input: '', output: '', cacheWrite: '', cacheRead: '' });
  });

  it('shows the built-in price as placeholders, and a dash without one', async () => {
    const onChange = vi.fn();
    const { rerender } = render(
      <PriceFields id="p" value={{ input: '', output: '', cacheWrite: '', cacheRead: '' }} builtin={{ input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 }} onChange={onChange} />,
    );
    expect(screen.getByLabelText('Cache read price')).toHaveAttribute('placeholder', '0.3');
    await userEvent.type(screen.getByLabelText('Output price'), '9');
    expect(onChange).toHaveBeenLastCalledWith({ input: '', output: '9', cacheWrite: '', cacheRead: '' });
    rerender(<PriceFields id="p" value={{ input: '', output: '', cacheWrite: '', cacheRead: '' }} builtin={undefined} onChange={onChange} />);
    expect(screen.getByLabelText('Input price')).toHaveAttribute('placeholder', '—');
    expect(screen.getByText(/costs show as — unless you set input and output prices/)).toBeInTheDocument();
  });
});
