import { describe, expect, it } from 'vitest';
import { errorText, errorTextFor } from './errorText';

describe('errorText', () => {
  it.each([
    ['PROVIDER_ERROR', true],
    ['PROVIDER_UNREACHABLE', true],
    ['PROVIDER_UNAUTHORIZED', true],
    ['PROVIDER_RATE_LIMITED', true],
    ['MODEL_NOT_CONFIGURED', false],
    ['TURN_ABORTED', false],
    ['CONTEXT_TOO_LARGE', false],
  ])('%s: a sentence, a next step, retry %s', (code, retry) => {
    const t = errorText(code);
    expect(t.sentence).toMatch(/^[A-Z].*\.$/);
    expect(t.next).not.toBe('');
    expect(t.retry).toBe(retry);
  });

  it('names the settings section as it is called', () => {
    for (const code of ['PROVIDER_ERROR', 'PROVIDER_UNREACHABLE', 'PROVIDER_UNAUTHORIZED', 'MODEL_NOT_CONFIGURED']) {
      expect(errorText(code).next).toContain('Settings → Models');
    }
  });

  it('an unknown code still gets a sentence and asks for the details', () => {
    expect(errorText('SOMETHING_NEW')).toMatchObject({ sentence: 'Something went wrong.', retry: true });
  });

  it('the backend can add retry, never take it away', () => {
    expect(errorText('CONTEXT_TOO_LARGE', true).retry).toBe(true);
    expect(errorText('PROVIDER_ERROR', false).retry).toBe(true);
  });
});

describe('errorTextFor', () => {
  it.each([
    ['a mapped code keeps its words', 'PROVIDER_ERROR', 'dial tcp 127.0.0.1:1: refused', 'The model provider did not answer.', true],
    ['an unmapped code reads its message', 'INVALID_ARGUMENT', 'Name must not be empty', 'Name must not be empty.', false],
    ['a message keeps its own full stop', 'INVALID_ARGUMENT', 'Pick a shell.', 'Pick a shell.', false],
    ['no message falls back to a sentence', 'SOMETHING_NEW', '  ', 'Something went wrong.', false],
  ])('%s', (_name, code, message, sentence, retry) => {
    const t = errorTextFor(code, message);
    expect(t.sentence).toBe(sentence);
    expect(t.retry).toBe(retry);
  });
});
