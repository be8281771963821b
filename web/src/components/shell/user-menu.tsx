import { Link } from '@tanstack/react-router';
import { LogOut, UserRound } from 'lucide-react';
import {
  Menu,
  MenuContent,
  MenuItem,
  MenuLabel,
  MenuRadioGroup,
  MenuRadioItem,
  MenuSeparator,
  MenuTrigger,
} from '@/components/ui/menu';
import { useSignOut } from '@/lib/sign-out';
import { useTheme, type ThemeChoice } from '@/lib/theme';
import type { User } from '@/lib/types';

export function initials(name: string): string {
  return (
    name
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((part) => part[0]!.toUpperCase())
      .join('') || '?'
  );
}

export function UserMenu({ user }: { user: User | undefined }) {
  const { choice, setChoice } = useTheme();
  const signOut = useSignOut();
  return (
    <Menu>
      <MenuTrigger className="flex size-8 items-center justify-center rounded-full bg-muted text-xs font-semibold outline-none hover:ring-2 hover:ring-border focus-visible:ring-2 focus-visible:ring-ring">
        <span className="sr-only">Account menu</span>
        {user ? <span aria-hidden>{initials(user.name)}</span> : <UserRound className="size-4" aria-hidden />}
      </MenuTrigger>
      <MenuContent align="end" className="w-60">
        {user && (
          <div className="grid px-2 py-1.5">
            <span className="truncate text-sm font-medium">{user.name}</span>
            <span className="truncate text-xs text-muted-foreground">{user.email}</span>
          </div>
        )}
        <MenuSeparator />
        <MenuLabel>Theme</MenuLabel>
        <MenuRadioGroup value={choice} onValueChange={(value) => setChoice(value as ThemeChoice)}>
          <MenuRadioItem value="system">System</MenuRadioItem>
          <MenuRadioItem value="light">Light</MenuRadioItem>
          <MenuRadioItem value="dark">Dark</MenuRadioItem>
        </MenuRadioGroup>
        <MenuSeparator />
        <MenuItem asChild>
          <Link to="/settings/account">
            <UserRound />
            Account settings
          </Link>
        </MenuItem>
        <MenuItem onSelect={signOut}>
          <LogOut />
          Sign out
        </MenuItem>
      </MenuContent>
    </Menu>
  );
}
