import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from '@/components/shell/toasts';

/**
 * A change to one row of a list (revoke, remove, delete, rotate) behind a confirmation: `ask(row)`
 * opens the `ItemConfirm` given this action, confirming runs `call` on the row. On success it closes
 * the dialog, says what happened, and refetches the lists it changed (usage bars count rows too).
 */
export function useRowAction<T>({
  call,
  refresh,
  success,
}: {
  call: (item: T) => Promise<unknown>;
  refresh: readonly QueryKey[];
  success: (item: T) => string;
}) {
  const queryClient = useQueryClient();
  const [item, setItem] = useState<T | null>(null);
  const mutation = useMutation({
    mutationFn: call,
    onSuccess: async (_answer: unknown, done: T) => {
      setItem(null);
      toast.success(success(done));
      await Promise.all(refresh.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    },
  });
  return { item, ask: (row: T) => setItem(row), close: () => setItem(null), mutation };
}

export type RowAction<T> = ReturnType<typeof useRowAction<T>>;
