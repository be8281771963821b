/**
 * The list keys of DASHBOARD.md §1.4: `j`/`k` move a cursor through the rows, `Enter` opens the
 * row under it, `/` focuses the page's search. Keys typed into a field, or with a modifier, are
 * the field's, not the list's.
 */
import { useEffect, useRef, useState, type RefObject } from 'react';

function typingInField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

export function useListKeyboard({
  count,
  onOpen,
  search,
}: {
  count: number;
  onOpen: (index: number) => void;
  search?: RefObject<HTMLInputElement | null>;
}) {
  const [active, setActive] = useState<number | null>(null);
  const latest = useRef({ count, onOpen, active });
  latest.current = { count, onOpen, active };

  useEffect(() => {
    setActive((index) => (index !== null && index >= count ? (count > 0 ? count - 1 : null) : index));
  }, [count]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.metaKey || event.ctrlKey || event.altKey || event.defaultPrevented) return;
      if (event.key === '/' && search?.current && !typingInField(event.target)) {
        event.preventDefault();
        search.current.focus();
        search.current.select();
        return;
      }
      if (typingInField(event.target) || document.querySelector('[role="dialog"]')) return;
      const { count: rows, active: index, onOpen: open } = latest.current;
      if (rows === 0) return;
      if (event.key === 'j' || event.key === 'k') {
        event.preventDefault();
        const next = index === null ? 0 : Math.min(rows - 1, Math.max(0, index + (event.key === 'j' ? 1 : -1)));
        // Now, not at the next render: keys typed faster than the page renders (key repeat, a quick
        // j then Enter) each start from where the one before left the cursor.
        latest.current.active = next;
        setActive(next);
        document.querySelector(`[data-list-row="${next}"]`)?.scrollIntoView({ block: 'nearest' });
      } else if (
        event.key === 'Enter' &&
        index !== null &&
        !(event.target instanceof HTMLButtonElement || event.target instanceof HTMLAnchorElement)
      ) {
        event.preventDefault();
        open(index);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [search]);

  /** Props for row `index`: the cursor mark and the hook's scroll anchor. */
  const rowProps = (index: number) => ({
    active: active === index,
    'data-list-row': index,
    'aria-selected': active === index,
  });
  return { active, setActive, rowProps };
}
