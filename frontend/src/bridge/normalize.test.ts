import { describe, expect, it } from 'vitest';
import { backgroundTask, parseRaw, taskEvent, toMillis, todo, todosEvent } from './normalize';

describe('parseRaw', () => {
  it('accepts a JSON value, a JSON string or a byte array', () => {
    expect(parseRaw({ a: 1 })).toEqual({ a: 1 });
    expect(parseRaw('{"a":1}')).toEqual({ a: 1 });
    expect(parseRaw(Array.from(new TextEncoder().encode('[1,2]')))).toEqual([1, 2]);
  });
  it('returns undecodable input as it came', () => {
    expect(parseRaw('{broken')).toBe('{broken');
    expect(parseRaw('plain')).toBe('plain');
    expect(parseRaw(null)).toBeNull();
  });
});

describe('background tasks', () => {
  it('turns Go times into Unix ms and the zero time into 0', () => {
    expect(toMillis('2025-06-15T10:00:00Z')).toBe(Date.UTC(2025, 5, 15, 10));
    expect(toMillis('0001-01-01T00:00:00Z')).toBe(0);
    const t = backgroundTask({ id: 'k1', sessionId: 's1', command: 'npm run dev', state: 'running', startedAt: '2025-06-15T10:00:00Z' });
    expect(t).toMatchObject({ id: 'k1', exitCode: null, endedAt: 0, removed: false });
  });
  it('normalizes task events', () => {
    expect(taskEvent('task:exited', { id: 'k1', sessionId: 's1', state: 'exited', exitCode: 0 })).toMatchObject({ type: 'task_exited', sessionId: 's1', task: { exitCode: 0 } });
    expect(taskEvent('task:output', { sessionId: 's1', taskId: 'k1', stdoutBytes: 10 })).toEqual({ type: 'task_output', sessionId: 's1', taskId: 'k1', stdoutBytes: 10, stderrBytes: 0 });
    expect(taskEvent('task:nope', {})).toBeNull();
  });
});

describe('todos', () => {
  it('defaults a missing activeForm and an unknown status', () => {
    expect(todo({ content: 'Build', status: 'completed' })).toEqual({ content: 'Build', status: 'completed', activeForm: '' });
    expect(todo({ content: 'Build', status: 'done?' }).status).toBe('pending');
    expect(todo(null)).toEqual({ content: '', status: 'pending', activeForm: '' });
  });
  it('normalizes agent:todos and drops a payload without a session', () => {
    expect(todosEvent({ sessionId: 's1', todos: null })).toEqual({ sessionId: 's1', turnId: '', todos: [] });
    expect(todosEvent({ todos: [] })).toBeNull();
  });
});
