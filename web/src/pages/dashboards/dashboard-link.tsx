import { Link } from '@tanstack/react-router';
import { keepScope } from './api';

/** A dashboard's name, linking to it in the project and range of this page. */
export function DashboardLink({
  dashboard,
  className,
}: {
  dashboard: { id: string; name: string };
  className: string;
}) {
  return (
    <Link to="/dashboards/$id" params={{ id: dashboard.id }} search={keepScope} className={className}>
      {dashboard.name}
    </Link>
  );
}
