import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { toast } from '@/components/shell/toasts';

/**
 * A change to one row of a list (revoke, remove, delete): on success it closes what asked for it,
 * says what happened, and refetches the lists it changed (usage bars count rows too).
 */
export function useListMutation<T>({
  call,
  refresh,
  success,
  done,
}: {
  call: (item: T) => Promise<unknown>;
  refresh: readonly QueryKey[];
  success: (item: T) => string;
  done?: () => void;
}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: async (_answer: unknown, item: T) => {
      done?.();
      toast.success(success(item));
      await Promise.all(refresh.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    },
  });
}
