/** What the sections of /alerts share: the states before their table, and the delete confirmation. */
import { useMutation, useQueryClient, type UseMutationResult, type UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { toast } from '@/components/shell/toasts';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/dialog';
import { ErrorState, TableSkeleton } from '@/components/ui/states';

/** A skeleton while loading, the server's message on failure, `empty` without rows, else the table. */
export function SectionBody({ query, rows, columns, empty, children }: { query: UseQueryResult<unknown[]>; rows: number; columns: number; empty: ReactNode; children: ReactNode }) {
  if (query.isPending) return <TableSkeleton rows={rows} columns={columns} />;
  if (query.isError) return <ErrorState error={query.error} className="m-4" />;
  if (query.data.length === 0) return empty;
  return children;
}

/** "Delete X?" for a rule or a channel; the server's refusal shows in the dialog. */
export function DeleteConfirm<T extends { name: string }>({
  item,
  noun,
  description,
  onClose,
  remove,
}: {
  item: T | null;
  noun: string;
  description: string;
  onClose: () => void;
  remove: UseMutationResult<unknown, Error, T>;
}) {
  return (
    <ConfirmDialog
      open={item !== null}
      onOpenChange={(open) => {
        if (!open) {
          onClose();
          remove.reset();
        }
      }}
      title={`Delete ${noun} ${item?.name ?? ''}?`}
      description={description}
      confirmLabel={`Delete ${noun}`}
      pending={remove.isPending}
      error={remove.error}
      onConfirm={() => item && remove.mutate(item)}
    />
  );
}


/** A delete call that says so, refreshes the list it came from, and closes its confirmation. */
export function useDelete<T extends { id: string; name: string }>(noun: string, call: (item: T) => Promise<unknown>, listKey: readonly unknown[], done: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: async (_answer: unknown, item: T) => {
      done();
      toast.success(`${noun} ${item.name} deleted`);
      await queryClient.invalidateQueries({ queryKey: listKey });
    },
  });
}

/** The end of a dialog's form: the server's message, Cancel, and the submit button. */
export function FormFooter({ error, pending, label, pendingLabel, onCancel }: { error: Error | null; pending: boolean; label: string; pendingLabel: string; onCancel: () => void }) {
  return (
    <>
      {error && (
        <p role="alert" className="text-sm text-danger">
          {error.message}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <Button type="button" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" disabled={pending}>
          {pending ? pendingLabel : label}
        </Button>
      </div>
    </>
  );
}
