import { useEffect, useState } from 'react';
import type { ThemeSetting } from '../../bridge/types';
import { resolveTheme, type ResolvedTheme } from '../../lib/theme';

const QUERY = '(prefers-color-scheme: dark)';

function systemPrefersDark(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(QUERY).matches;
}

/** Applies the theme to <html data-theme>, following the OS while the setting is "system". */
export function useTheme(setting: ThemeSetting | undefined): ResolvedTheme {
  const [prefersDark, setPrefersDark] = useState(systemPrefersDark);

  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const mql = window.matchMedia(QUERY);
    const onChange = (e: MediaQueryListEvent) => setPrefersDark(e.matches);
    setPrefersDark(mql.matches);
    mql.addEventListener('change', onChange);
    return () => mql.removeEventListener('change', onChange);
  }, []);

  const theme = resolveTheme(setting ?? 'system', prefersDark);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
    document.documentElement.style.colorScheme = theme;
  }, [theme]);
  return theme;
}
