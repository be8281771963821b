/**
 * A link to a page whose route another part of the dashboard owns and may not declare yet (a
 * session's replay, the logs of a trace): a plain href carrying the project and the time range,
 * followed inside the app without a reload.
 */
import { useRouter, useSearch } from '@tanstack/react-router';
import type { ComponentProps } from 'react';

export function ScopedLink({ path, query = {}, ...props }: { path: string; query?: Record<string, string> } & Omit<ComponentProps<'a'>, 'href'>) {
  const router = useRouter();
  const { projectId, range, from, to } = useSearch({ strict: false });
  const scope = Object.entries({ projectId, range, from, to }).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
  const href = `${path}?${new URLSearchParams([...scope, ...Object.entries(query)])}`;
  return (
    <a
      {...props}
      href={href}
      onClick={(event) => {
        props.onClick?.(event);
        if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        router.history.push(href);
      }}
    />
  );
}
