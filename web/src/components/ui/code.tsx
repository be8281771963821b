import { Check, Copy } from 'lucide-react';
import { useState } from 'react';
import { toast } from '@/components/shell/toasts';
import { cn } from '@/lib/utils';
import { Button } from './button';

export function CopyButton({ value, label, className }: { value: string; label: string; className?: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      toast.success(`${label.charAt(0).toUpperCase()}${label.slice(1)} copied`);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      toast.error('The browser did not allow copying; select the text instead.');
    }
  };
  return (
    <Button variant="ghost" size="sm" className={cn('text-muted-foreground', className)} onClick={() => void copy()}>
      {copied ? <Check className="text-success" /> : <Copy />}
      {/* The accessible name starts with the visible word, whichever it shows ("Copy connection
          string", "Copied connection string"): a fixed aria-label contradicted "Copied". */}
      {copied ? 'Copied' : 'Copy'}
      <span className="sr-only"> {label}</span>
    </Button>
  );
}

/** A value to paste elsewhere: monospace, selectable, scrolls rather than wraps, with a copy button. */
export function CodeBlock({ code, label, className }: { code: string; label: string; className?: string }) {
  return (
    // min-w-0: as a grid or flex item the block would otherwise be as wide as its longest line and
    // push the page sideways on a phone, instead of scrolling inside itself.
    <div className={cn('relative min-w-0 rounded-md border bg-muted', className)}>
      <pre
        role="region"
        className="overflow-x-auto py-2.5 pr-24 pl-3 font-mono text-xs leading-5"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable for keyboard users to scroll it
        tabIndex={0}
        aria-label={label}
      >
        <code>{code}</code>
      </pre>
      {/* Opaque to the block's edge: a line longer than the block (on a phone) scrolls under the
          button, and no sliver of it shows between the button and the border. */}
      <div className="absolute top-0 right-0 rounded-tr-md bg-muted p-1">
        <CopyButton value={code} label={label} className="bg-muted hover:bg-accent-soft" />
      </div>
    </div>
  );
}
