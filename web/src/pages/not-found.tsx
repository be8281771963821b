import { Link } from '@tanstack/react-router';

export function NotFound() {
  return (
    <div className="grid min-h-[60vh] place-content-center gap-2 p-6 text-center">
      <p className="font-mono text-sm text-muted-foreground">404</p>
      <h1 className="text-lg font-semibold">This page does not exist</h1>
      <Link to="/" className="text-sm font-medium text-accent hover:underline">
        Go to the dashboard
      </Link>
    </div>
  );
}
