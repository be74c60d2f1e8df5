import { describe, expect, it } from 'vitest';
import { BridgeError, toBridgeError } from './errors';

describe('toBridgeError', () => {
  it('keeps code, message and details of the Go ErrorFormatter payload', () => {
    const e = toBridgeError({ code: 'COMMAND_SHELL_INVALID', message: 'unknown shell "fish"', details: { field: 'defaultCommandShell' } });
    expect(e).toBeInstanceOf(BridgeError);
    expect(e.code).toBe('COMMAND_SHELL_INVALID');
    expect(e.message).toBe('unknown shell "fish"');
    expect(e.details).toEqual({ field: 'defaultCommandShell' });
    expect(e.field).toBe('defaultCommandShell');
  });

  it('defaults missing details to an empty object and a missing message to the code', () => {
    const e = toBridgeError({ code: 'NOT_FOUND' });
    expect(e.details).toEqual({});
    expect(e.message).toBe('NOT_FOUND');
    expect(e.field).toBeUndefined();
  });

  it('parses a JSON-encoded payload delivered as a string', () => {
    const e = toBridgeError(JSON.stringify({ code: 'SCHEMA_TOO_NEW', message: 'update PI-Desktop', details: {} }));
    expect(e.code).toBe('SCHEMA_TOO_NEW');
    expect(e.message).toBe('update PI-Desktop');
  });

  it('maps a plain string to INTERNAL', () => {
    const e = toBridgeError('connection lost');
    expect(e.code).toBe('INTERNAL');
    expect(e.message).toBe('connection lost');
  });

  it('maps an Error to INTERNAL with its message', () => {
    const e = toBridgeError(new TypeError('x is undefined'));
    expect(e.code).toBe('INTERNAL');
    expect(e.message).toBe('x is undefined');
  });

  it('maps junk to INTERNAL with a generic message', () => {
    for (const junk of [undefined, null, 42, [], {}, { code: 7 }, '{not json']) {
      const e = toBridgeError(junk);
      expect(e.code).toBe('INTERNAL');
      expect(e.message.length).toBeGreaterThan(0);
    }
  });

  it('returns an existing BridgeError unchanged', () => {
    const orig = new BridgeError('CONFLICT', 'busy');
    expect(toBridgeError(orig)).toBe(orig);
  });
});
