import { Search } from 'lucide-react';
import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils';

export function Input({ className, ...props }: ComponentProps<'input'>) {
  return (
    <input
      className={cn(
        'h-8 w-full min-w-0 rounded-md border border-input bg-panel px-2.5 text-sm outline-none placeholder:text-muted-foreground focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/30 disabled:opacity-50 aria-invalid:border-danger',
        className,
      )}
      {...props}
    />
  );
}

export interface SelectOption {
  value: string | number;
  label: string;
}

/** A native select; `options` renders the usual value/label list after `children` (an "All …" choice, say). */
export function Select({
  className,
  options,
  children,
  ...props
}: ComponentProps<'select'> & { options?: ReadonlyArray<SelectOption> }) {
  return (
    <select
      className={cn(
        'h-8 w-full rounded-md border border-input bg-panel px-2 text-sm outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/30 disabled:cursor-not-allowed disabled:opacity-50',
        className,
      )}
      {...props}
    >
      {children}
      {options?.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </select>
  );
}

export function Label({ className, ...props }: ComponentProps<'label'>) {
  // biome-ignore lint/a11y/noLabelWithoutControl: every caller passes htmlFor (Field requires it)
  return <label className={cn('text-xs font-medium text-muted-foreground', className)} {...props} />;
}

/** A label above its control with an optional hint, the form layout of every page. */
export function Field({
  label,
  htmlFor,
  hint,
  className,
  children,
}: {
  label: string;
  htmlFor: string;
  hint?: string | undefined;
  /** Its width in a row form (`w-72`). */
  className?: string | undefined;
  children: React.ReactNode;
}) {
  return (
    <div className={cn('grid gap-1.5', className)}>
      <Label htmlFor={htmlFor}>{label}</Label>
      {children}
      {hint && <p className="text-xs text-muted-foreground">{hint}</p>}
    </div>
  );
}

interface FieldFrame {
  label: string;
  id: string;
  hint?: string | undefined;
  className?: string | undefined;
}

/** A labelled text input that hands over the new text: most fields of the dashboard's forms. */
export function TextField({
  label,
  id,
  hint,
  className,
  onValue,
  ...input
}: FieldFrame & Omit<ComponentProps<'input'>, 'id' | 'className' | 'onChange'> & { onValue: (value: string) => void }) {
  return (
    <Field label={label} htmlFor={id} hint={hint} className={className}>
      <Input id={id} onChange={(event) => onValue(event.target.value)} {...input} />
    </Field>
  );
}

/** A labelled select over `options` (and any `children` before them) that hands over the chosen value. */
export function SelectField<V extends string>({
  label,
  id,
  hint,
  className,
  onValue,
  ...select
}: FieldFrame &
  Omit<ComponentProps<'select'>, 'id' | 'className' | 'onChange' | 'value'> & {
    value: V;
    onValue: (value: V) => void;
    options?: ReadonlyArray<{ value: V; label: string }>;
  }) {
  return (
    <Field label={label} htmlFor={id} hint={hint} className={className}>
      {/* The options are the only values the select can take. */}
      <Select id={id} onChange={(event) => onValue(event.target.value as V)} {...select} />
    </Field>
  );
}

/**
 * A search box, named by `label` for screen readers (its placeholder says what it searches, and
 * its `/` shortcut where a page has one), with a magnifier inside it; `className` places the pair.
 */
export function SearchInput({
  label,
  onValue,
  className,
  ...input
}: Omit<ComponentProps<'input'>, 'type' | 'onChange' | 'aria-label'> & {
  label: string;
  onValue: (value: string) => void;
}) {
  return (
    <div className={cn('relative', className)}>
      <Search className="pointer-events-none absolute top-2 left-2.5 size-4 text-muted-foreground" aria-hidden />
      <Input
        type="search"
        onChange={(event) => onValue(event.target.value)}
        aria-label={label}
        className="pl-8"
        {...input}
      />
    </div>
  );
}
