import { Toaster } from 'sonner';
import { useTheme } from '@/lib/theme';

export { toast } from 'sonner';

export function Toasts() {
  const { resolved } = useTheme();
  return (
    <Toaster
      theme={resolved}
      position="bottom-right"
      toastOptions={{
        classNames: { toast: '!bg-panel !text-foreground !border-border', description: '!text-muted-foreground' },
      }}
    />
  );
}
