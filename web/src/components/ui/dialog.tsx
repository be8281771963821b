import { Dialog as D } from 'radix-ui';
import type { ComponentProps } from 'react';
import { X } from 'lucide-react';
import { cn } from '@/lib/utils';

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
      >
        <div className={cn('grid gap-1', hideTitle && 'sr-only')}>
          <D.Title className="text-base font-semibold">{title}</D.Title>
          {description && <D.Description className="text-sm text-muted-foreground">{description}</D.Description>}
        </div>
        {children}
        {!hideTitle && (
          <D.Close className="absolute top-3 right-3 rounded-md p-1 text-muted-foreground hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none" aria-label="Close">
            <X className="size-4" />
          </D.Close>
        )}
      </D.Content>
    </D.Portal>
  );
}
