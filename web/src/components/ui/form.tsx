/**
 * The forms of settings cards and dialogs: the submit wiring, the error line and the panel that
 * shows a secret once. Pages keep their fields; these keep every form looking and failing alike.
 */
import type { FormEvent, ReactNode } from 'react';
import { cn } from '@/lib/utils';
import { Button, SubmitButton, unavailableProps } from './button';
import { CodeBlock } from './code';

/** The server's (or the form's own) complaint, announced to screen readers. */
export function FormError({ message, className }: { message: string | null | undefined; className?: string }) {
  if (!message) return null;
  return (
    <p
      role="alert"
      className={cn('rounded-md border border-danger/30 bg-danger/10 px-3 py-2 text-sm text-danger', className)}
    >
      {message}
    </p>
  );
}

/** Why a form cannot succeed now (a plan limit reached), said before it is filled. */
export function FormNotice({ message, className }: { message: string | null; className?: string }) {
  if (!message) return null;
  return (
    <p role="status" className={cn('rounded-md border border-warning/50 bg-warning/5 px-3 py-2 text-sm', className)}>
      {message}
    </p>
  );
}

/**
 * `row`: fields side by side above a card's list (create a token, invite a member); `stack`: one
 * field a line (profile, password, dialogs). The error, if any, takes the last line.
 */
export function Form({
  onSubmit,
  error,
  layout = 'stack',
  className,
  children,
}: {
  onSubmit: () => void;
  error?: string | null;
  layout?: 'row' | 'stack';
  className?: string;
  children: ReactNode;
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <form
      onSubmit={submit}
      className={cn(layout === 'row' ? 'flex flex-wrap items-end gap-3 px-4 py-3' : 'grid gap-3', className)}
    >
      {children}
      <FormError message={error} className={layout === 'row' ? 'w-full' : undefined} />
    </form>
  );
}

/**
 * The row form at the top of a card's list that adds to it (create a token, invite a member): the
 * fields, then the submit button; the server's refusal takes the line below.
 */
export function AddRowForm({
  mutation,
  label,
  pendingLabel,
  disabled,
  children,
}: {
  mutation: { mutate: () => void; isPending: boolean; error: Error | null };
  label: string;
  pendingLabel: string;
  disabled: boolean;
  children: ReactNode;
}) {
  return (
    <Form layout="row" className="border-b" onSubmit={() => mutation.mutate()} error={mutation.error?.message}>
      {children}
      <SubmitButton pending={mutation.isPending} pendingLabel={pendingLabel} disabled={disabled}>
        {label}
      </SubmitButton>
    </Form>
  );
}

/** A secret or link shown only in this answer: what it is, and the value with its copy button. */
export function ShownOnce({ code, label, children }: { code: string; label: string; children: ReactNode }) {
  return (
    <div className="grid gap-2 border-b bg-accent-soft/50 px-4 py-3" role="status">
      <p className="text-sm">{children}</p>
      <CodeBlock code={code} label={label} />
    </div>
  );
}

/** The end of a dialog's form: the server's message, Cancel, and the submit button. */
export function DialogFormFooter({
  error,
  pending,
  label,
  pendingLabel,
  onCancel,
  disabled = false,
}: {
  error: Error | null;
  pending: boolean;
  label: string;
  pendingLabel: string;
  onCancel: () => void;
  disabled?: boolean;
}) {
  return (
    <>
      <FormError message={error?.message} />
      <div className="flex justify-end gap-2">
        <Button type="button" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" {...unavailableProps(pending || disabled)}>
          {pending ? pendingLabel : label}
        </Button>
      </div>
    </>
  );
}
