import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { BridgeError } from '../../bridge/errors';
import { StartupError } from './StartupError';

describe('StartupError', () => {
  it.each([
    ['STORAGE_FOREIGN', 'The database belongs to another program'],
    ['DATA_DIR_NOT_WRITABLE', 'The data folder is not writable'],
    ['SOMETHING_NEW', 'PI-Desktop could not start'],
  ])('gives %s its heading and shows the message with the next step', (code, heading) => {
    const message = 'the data folder /ro/data is not writable (read-only file system); start with another data folder: --data-dir DIR';
    render(<StartupError error={new BridgeError(code, message)} />);
    expect(screen.getByRole('heading', { name: heading })).toBeInTheDocument();
    expect(screen.getByText(message)).toBeInTheDocument();
    expect(screen.getByText(code)).toBeInTheDocument();
  });
});
