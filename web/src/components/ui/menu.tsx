import { DropdownMenu as M, Popover as P } from 'radix-ui';
import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils';

export const Menu = M.Root;
export const MenuTrigger = M.Trigger;
export const MenuGroup = M.Group;
export const MenuRadioGroup = M.RadioGroup;

/**
 * Where the keyboard is in a list of choices (a menu's item, the palette's entry, a preset): a bar
 * in the ring colour along the item's left edge. The item's background alone is a few percent
 * darker than the surface (about 1.1:1), which a keyboard user cannot find (WCAG 1.4.11 asks 3:1).
 * One class per way the item says it is current, written out whole for Tailwind to find.
 */
export const currentItemBar = {
  highlighted: 'data-[highlighted]:shadow-[inset_2px_0_0_var(--ring)]',
  selected: 'data-[selected=true]:shadow-[inset_2px_0_0_var(--ring)]',
  focused: 'focus-visible:shadow-[inset_2px_0_0_var(--ring)]',
} as const;

const surface = 'z-50 min-w-48 overflow-hidden rounded-md border bg-panel p-1 text-sm shadow-lg outline-none';
const item = `relative flex cursor-default items-center gap-2 rounded-sm px-2 py-1.5 outline-none select-none data-[disabled]:opacity-50 data-[highlighted]:bg-muted ${currentItemBar.highlighted} [&_svg]:size-4 [&_svg]:shrink-0 [&_svg]:text-muted-foreground`;

export function MenuContent({ className, sideOffset = 4, ...props }: ComponentProps<typeof M.Content>) {
  return (
    <M.Portal>
      <M.Content sideOffset={sideOffset} className={cn(surface, className)} {...props} />
    </M.Portal>
  );
}

export function MenuItem({ className, ...props }: ComponentProps<typeof M.Item>) {
  return <M.Item className={cn(item, className)} {...props} />;
}

export function MenuRadioItem({ className, children, ...props }: ComponentProps<typeof M.RadioItem>) {
  return (
    <M.RadioItem className={cn(item, 'pl-7', className)} {...props}>
      <M.ItemIndicator className="absolute left-2 flex size-3.5 items-center justify-center">
        <span className="size-1.5 rounded-full bg-foreground" />
      </M.ItemIndicator>
      {children}
    </M.RadioItem>
  );
}

export function MenuLabel({ className, ...props }: ComponentProps<typeof M.Label>) {
  return <M.Label className={cn('px-2 py-1.5 text-xs font-medium text-muted-foreground', className)} {...props} />;
}

export function MenuSeparator({ className, ...props }: ComponentProps<typeof M.Separator>) {
  return <M.Separator className={cn('-mx-1 my-1 h-px bg-border', className)} {...props} />;
}

export const Popover = P.Root;
export const PopoverTrigger = P.Trigger;

export function PopoverContent({
  className,
  sideOffset = 4,
  align = 'end',
  ...props
}: ComponentProps<typeof P.Content>) {
  return (
    <P.Portal>
      <P.Content sideOffset={sideOffset} align={align} className={cn(surface, 'p-0', className)} {...props} />
    </P.Portal>
  );
}
