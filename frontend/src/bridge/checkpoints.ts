// Shapes and parsers of workspace checkpoints (backend/checkpoint); the schemas are in
// wire.ts. Pure: the fake bridge in tests reuses the parsers.
import * as v from 'valibot';
import type { Out } from './wire';
import * as w from './wire';

export type Checkpoint = Out<typeof w.Checkpoint>;
export type RestoreFile = Out<typeof w.RestoreFile>;
export type RestorePlan = Out<typeof w.RestorePlan>;
export type RestoreResult = Out<typeof w.RestoreResult>;
export type CommandFile = Out<typeof w.CommandFile>;
export type CommandChange = Out<typeof w.CommandChange>;
export type CheckpointUsage = Out<typeof w.CheckpointUsage>;

export function checkpointList(x: unknown): Checkpoint[] {
  return v.parse(v.fallback(v.array(w.Checkpoint), () => []), x);
}

export function restorePlan(x: unknown): RestorePlan {
  return v.parse(w.RestorePlan, x);
}

export function restoreResult(x: unknown): RestoreResult {
  return v.parse(w.RestoreResult, x);
}

export function commandChanges(x: unknown): CommandChange[] {
  return v.parse(v.fallback(v.array(w.CommandChange), () => []), x);
}

export function checkpointUsage(x: unknown): CheckpointUsage {
  return v.parse(w.CheckpointUsage, x);
}

export function checkpointUsageList(x: unknown): CheckpointUsage[] {
  return v.parse(v.fallback(v.array(w.CheckpointUsage), () => []), x);
}
