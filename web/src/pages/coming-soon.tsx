import { Link } from '@tanstack/react-router';
import { Construction } from 'lucide-react';
import { Card } from '@/components/ui/card';
import type { Page } from '@/lib/navigation';
import { PageHeader } from './page-header';

/** A page whose part of the dashboard has not landed: says what it will show and where to go now. */
export function ComingSoon({ page }: { page: Page }) {
  return (
    <div className="grid gap-4 px-6 py-5">
      <PageHeader title={page.label} />
      <Card className="grid justify-items-start gap-2 p-6">
        <div className="flex items-center gap-2 text-sm font-medium">
          <Construction className="size-4 text-muted-foreground" aria-hidden />
          Coming in this release
        </div>
        <p className="max-w-prose text-sm text-muted-foreground">{page.about}</p>
        <p className="text-sm text-muted-foreground">
          Meanwhile, the{' '}
          <Link to="/connection" className="font-medium text-accent underline-offset-2 hover:underline">
            Connection
          </Link>{' '}
          page has what the project needs to send data, and the API reference is at{' '}
          <a href="/api/docs" className="font-medium text-accent underline-offset-2 hover:underline">
            /api/docs
          </a>
          .
        </p>
      </Card>
    </div>
  );
}
