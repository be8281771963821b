/**
 * Light and dark themes: follow the system unless the person picked one (stored in
 * localStorage, read before paint by public/theme.js under the same key).
 */
import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';

export type ThemeChoice = 'system' | 'light' | 'dark';
const KEY = 'sightline.theme';

interface ThemeState {
  choice: ThemeChoice;
  resolved: 'light' | 'dark';
  setChoice(choice: ThemeChoice): void;
}

const ThemeContext = createContext<ThemeState | null>(null);

function storedChoice(): ThemeChoice {
  try {
    const value = localStorage.getItem(KEY);
    return value === 'light' || value === 'dark' ? value : 'system';
  } catch {
    return 'system';
  }
}

const systemDark = () => window.matchMedia('(prefers-color-scheme: dark)').matches;

export function ThemeProvider({ children }: { children: ReactNode }) {
  const [choice, setChoiceState] = useState<ThemeChoice>(storedChoice);
  const [dark, setDark] = useState(systemDark);

  useEffect(() => {
    const query = window.matchMedia('(prefers-color-scheme: dark)');
    const changed = () => setDark(query.matches);
    query.addEventListener('change', changed);
    return () => query.removeEventListener('change', changed);
  }, []);

  const resolved = choice === 'system' ? (dark ? 'dark' : 'light') : choice;
  useEffect(() => {
    const root = document.documentElement;
    if (root.classList.contains('dark') === (resolved === 'dark')) return;
    // Swap every colour at once: without this, controls with a colour transition fade through
    // the old theme's colours for a moment (a white button in a dark page).
    root.classList.add('theme-switching');
    root.classList.toggle('dark', resolved === 'dark');
    requestAnimationFrame(() => requestAnimationFrame(() => root.classList.remove('theme-switching')));
  }, [resolved]);

  const value = useMemo<ThemeState>(
    () => ({
      choice,
      resolved,
      setChoice(next) {
        setChoiceState(next);
        if (next === 'system') localStorage.removeItem(KEY);
        else localStorage.setItem(KEY, next);
      },
    }),
    [choice, resolved],
  );
  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
}

export function useTheme(): ThemeState {
  const state = useContext(ThemeContext);
  if (state === null) throw new Error('useTheme outside ThemeProvider');
  return state;
}
