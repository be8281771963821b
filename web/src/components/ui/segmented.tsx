/** A row of mutually exclusive buttons: a filter (radios) or the sections of a page (tabs). */
import { cn } from '@/lib/utils';

export function Segmented<T extends string>({
  label,
  kind = 'radio',
  options,
  value,
  onChange,
  idPrefix,
}: {
  label: string;
  kind?: 'radio' | 'tab';
  options: ReadonlyArray<{ value: T; label: string }>;
  value: T;
  onChange: (value: T) => void;
  /** Tabs: the id of each is `${idPrefix}-${value}`, for the panel's aria-labelledby. */
  idPrefix?: string;
}) {
  return (
    // biome-ignore lint/a11y/useAriaPropsSupportedByRole: both roles it takes (radiogroup, tablist) support aria-label
    <div
      role={kind === 'radio' ? 'radiogroup' : 'tablist'}
      aria-label={label}
      className="inline-flex w-fit rounded-md border bg-panel p-0.5 text-sm"
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
            'h-7 rounded px-3 text-muted-foreground outline-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring',
            value === option.value && 'bg-muted font-medium text-foreground',
          )}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}
