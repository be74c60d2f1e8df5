// Shapes and parser of the skills list (backend/api/skills.go); the schemas are in
// wire.ts. Pure: the fake bridge in tests reuses the parser.
import * as v from 'valibot';
import type { Out } from './wire';
import * as w from './wire';

export type SkillEntry = Out<typeof w.SkillEntry>;
export type SkillList = Out<typeof w.SkillList>;

export function skillList(x: unknown): SkillList {
  return v.parse(w.SkillList, x);
}
