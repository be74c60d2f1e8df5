import type { ThemeSetting } from '../bridge/types';

export type ResolvedTheme = 'light' | 'dark';

/** The theme to paint: an explicit light/dark setting wins; "system" (or anything unknown) follows the OS. */
export function resolveTheme(setting: ThemeSetting | string | undefined, systemPrefersDark: boolean): ResolvedTheme {
  if (setting === 'light' || setting === 'dark') return setting;
  return systemPrefersDark ? 'dark' : 'light';
}
