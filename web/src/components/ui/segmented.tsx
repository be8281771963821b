/**
 * A row of mutually exclusive buttons: a filter (radios) or the sections of a page (tabs). `sm` fits
 * the header of a card (chart type, which calls to list); the default stands in a page's toolbar.
 */
import { cn } from '@/lib/utils';

export function Segmented<T extends string>({
  label,
  kind = 'radio',
  options,
  value,
  onChange,
  idPrefix,
  size = 'default',
}: {
  label: string;
  kind?: 'radio' | 'tab';
  options: ReadonlyArray<{ value: T; label: string }>;
  value: T;
  onChange: (value: T) => void;
  /** Tabs: the id of each is `${idPrefix}-${value}`, for the panel's aria-labelledby. */
  idPrefix?: string;
  size?: 'default' | 'sm';
}) {
  return (
    // biome-ignore lint/a11y/useAriaPropsSupportedByRole: both roles it takes (radiogroup, tablist) support aria-label
    <div
      role={kind === 'radio' ? 'radiogroup' : 'tablist'}
      aria-label={label}
      className={cn('inline-flex w-fit rounded-md border bg-panel p-0.5', size === 'sm' ? 'text-xs' : 'text-sm')}
    >
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          role={kind}
          {...(kind === 'radio'
            ? { 'aria-checked': value === option.value }
            : { 'aria-selected': value === option.value })}
          {...(idPrefix ? { id: `${idPrefix}-${option.value}` } : {})}
          onClick={() => onChange(option.value)}
          className={cn(
            'rounded text-muted-foreground outline-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring',
            size === 'sm' ? 'h-6 px-2.5' : 'h-7 px-3',
            value === option.value && 'bg-muted font-medium text-foreground',
          )}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}
