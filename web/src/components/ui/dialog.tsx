import { Dialog as D } from 'radix-ui';
import { useRef, useState, type ComponentProps, type RefObject } from 'react';
import { X } from 'lucide-react';
import type { RowAction } from '@/lib/use-row-action';
import { cn } from '@/lib/utils';
import { Button } from './button';

export const Dialog = D.Root;
export const DialogTrigger = D.Trigger;
export const DialogClose = D.Close;

export function DialogContent({
  className,
  children,
  title,
  description,
  hideTitle = false,
  ...props
}: ComponentProps<typeof D.Content> & { title: string; description?: string; hideTitle?: boolean }) {
  // Most dialogs here are opened by state, not by a Dialog.Trigger, and Radix returns focus only to
  // a Trigger: without this, Esc or Cancel would drop keyboard users at the top of the page. The
  // control that had focus when the dialog opened gets it back, if it is still there
  // (RememberOpener reads it).
  const opener = useRef<HTMLElement | null>(null);
  return (
    <D.Portal>
      <D.Overlay className="fixed inset-0 z-40 bg-black/40" />
      <D.Content
        className={cn(
          'fixed top-[12vh] left-1/2 z-50 grid w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 gap-4 rounded-lg border bg-panel p-5 shadow-xl outline-none',
          className,
        )}
        {...(description ? {} : { 'aria-describedby': undefined })}
        {...props}
        onCloseAutoFocus={(event) => {
          props.onCloseAutoFocus?.(event);
          const target = opener.current;
          opener.current = null;
          if (event.defaultPrevented || !target?.isConnected) return;
          event.preventDefault();
          target.focus();
        }}
      >
        <RememberOpener into={opener} />
        <div className={cn('grid gap-1', hideTitle && 'sr-only')}>
          {/* Room on the right for the close button, which sits over the first line. */}
          <D.Title className="pr-7 text-base font-semibold">{title}</D.Title>
          {description && <D.Description className="text-sm text-muted-foreground">{description}</D.Description>}
        </div>
        {children}
        {!hideTitle && (
          <D.Close
            className="absolute top-3 right-3 rounded-md p-1 text-muted-foreground hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
            aria-label="Close"
          >
            <X className="size-4" />
          </D.Close>
        )}
      </D.Content>
    </D.Portal>
  );
}

/**
 * Notes the focused element as the content mounts, in render: before React gives a field's
 * autoFocus the focus in the commit, and before Radix's onOpenAutoFocus, both too late to see the
 * control that opened the dialog (New rule, Add widget…).
 */
function RememberOpener({ into }: { into: RefObject<HTMLElement | null> }) {
  useState(() => {
    into.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  });
  return null;
}

/** "Are you sure?" before a destructive action: the server's error shows in the dialog, where it happened. */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  onConfirm,
  pending = false,
  disabled = false,
  error,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  confirmLabel: string;
  onConfirm: () => void;
  pending?: boolean;
  disabled?: boolean;
  error?: Error | null;
  children?: React.ReactNode;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title={title} description={description}>
        <form
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            onConfirm();
          }}
        >
          {children}
          {error && (
            <p role="alert" className="text-sm text-danger">
              {error.message}
            </p>
          )}
          <div className="flex justify-end gap-2">
            <Button type="button" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" variant="danger" disabled={pending || disabled}>
              {confirmLabel}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/**
 * The confirmation of a row's destructive action (`useRowAction`): open while a row is asked about;
 * closing it forgets the row and the last refusal, confirming runs the action's mutation on the row.
 */
export function ItemConfirm<T>({
  action,
  title,
  description,
  confirmLabel,
}: {
  action: RowAction<T>;
  title: string;
  description: string;
  confirmLabel: string;
}) {
  const { item, close, mutation } = action;
  return (
    <ConfirmDialog
      open={item !== null}
      onOpenChange={(open) => {
        if (!open) {
          close();
          mutation.reset();
        }
      }}
      title={title}
      description={description}
      confirmLabel={confirmLabel}
      pending={mutation.isPending}
      error={mutation.error}
      onConfirm={() => item !== null && mutation.mutate(item)}
    />
  );
}
