import { Moon, Sun } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useTheme } from '@/lib/theme';

/** One click flips to the other theme (and stops following the system); the user menu offers "System" back. */
export function ThemeToggle() {
  const { resolved, setChoice } = useTheme();
  const next = resolved === 'dark' ? 'light' : 'dark';
  return (
    <Button
      variant="ghost"
      size="icon"
      aria-label={`Switch to ${next} theme`}
      title={`Switch to ${next} theme`}
      onClick={() => setChoice(next)}
    >
      {resolved === 'dark' ? <Sun /> : <Moon />}
    </Button>
  );
}
