import { cva, type VariantProps } from 'class-variance-authority';
import { Slot } from 'radix-ui';
import type { ComponentProps } from 'react';
import type { RowAction } from '@/lib/use-row-action';
import { cn } from '@/lib/utils';

export const buttonVariants = cva(
  'inline-flex shrink-0 items-center justify-center gap-1.5 whitespace-nowrap rounded-md text-sm font-medium transition-colors outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-1 focus-visible:ring-offset-background disabled:pointer-events-none disabled:opacity-50 aria-disabled:pointer-events-none aria-disabled:opacity-50 [&_svg]:size-4 [&_svg]:shrink-0',
  {
    variants: {
      variant: {
        primary: 'bg-accent text-accent-foreground hover:bg-accent/90',
        secondary: 'border border-input bg-panel hover:bg-muted',
        ghost: 'hover:bg-muted',
        danger: 'bg-danger text-white hover:bg-danger/90 dark:text-background',
      },
      size: {
        sm: 'h-7 px-2.5 text-xs',
        md: 'h-8 px-3',
        lg: 'h-9 px-4',
        icon: 'size-8',
      },
    },
    defaultVariants: { variant: 'secondary', size: 'md' },
  },
);

export function Button({
  className,
  variant,
  size,
  asChild = false,
  ...props
}: ComponentProps<'button'> & VariantProps<typeof buttonVariants> & { asChild?: boolean }) {
  const Component = asChild ? Slot.Root : 'button';
  return <Component className={cn(buttonVariants({ variant, size }), className)} {...props} />;
}

/**
 * Props of a button that cannot act now (its request runs, or there is nothing to send yet): it
 * says so (aria-disabled, dimmed) and ignores the press — Enter in a field of its form too — but
 * keeps the focus. `disabled` drops the focus at the top of the page: Enter on Invite cleared the
 * address, which disabled the button under the keyboard.
 */
export function unavailableProps(unavailable: boolean) {
  return {
    'aria-disabled': unavailable || undefined,
    onClick: (event: React.MouseEvent) => {
      if (unavailable) event.preventDefault();
    },
  };
}

/** A form's primary submit button, saying what it does while the request runs. */
export function SubmitButton({
  pending,
  pendingLabel,
  disabled = false,
  children,
}: {
  pending: boolean;
  pendingLabel: string;
  disabled?: boolean;
  children: React.ReactNode;
}) {
  return (
    <div>
      <Button type="submit" variant="primary" {...unavailableProps(pending || disabled)}>
        {pending ? pendingLabel : children}
      </Button>
    </div>
  );
}

/**
 * A row's destructive action in a table (revoke, remove, delete): asks `action` (`useRowAction`)
 * about `row`, whose confirmation does the rest; `label` names the row for screen readers.
 */
export function RowDangerButton<T>({
  action,
  row,
  label,
  children,
}: {
  action: Pick<RowAction<T>, 'ask'>;
  row: T;
  label: string;
  children: React.ReactNode;
}) {
  return (
    <Button size="sm" variant="ghost" className="text-danger" onClick={() => action.ask(row)} aria-label={label}>
      {children}
    </Button>
  );
}
