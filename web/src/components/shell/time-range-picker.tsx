import { useNavigate, useSearch } from '@tanstack/react-router';
import { CalendarClock, Check } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Input, Label } from '@/components/ui/input';
import { currentItemBar, Popover, PopoverContent, PopoverTrigger } from '@/components/ui/menu';
import { cn } from '@/lib/utils';
import { DEFAULT_PRESET, fromLocalInput, MAX_RANGE_DAYS, PRESETS, resolveRange, toLocalInput } from '@/lib/time-range';
import { zoneDifference } from '@/lib/time-zone';
import { useDisplayTimeZone } from '@/lib/use-display-time-zone';

export function TimeRangePicker() {
  const navigate = useNavigate();
  const search = useSearch({ strict: false });
  const [open, setOpen] = useState(false);
  const current = resolveRange(search);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  // Times are in the organization's zone; where the browser's runs at another offset, say so here,
  // once for every page (DASHBOARD.md §1.6). The custom range is typed on the same wall clock.
  const zone = useDisplayTimeZone();
  const difference = zoneDifference(Date.now(), zone);
  const zoneNote = difference
    ? `Times are in the organization's time zone, ${difference.zone} (${difference.offset}); this browser is at ${difference.browserOffset}.`
    : undefined;

  const onOpenChange = (next: boolean) => {
    if (next) {
      setFrom(toLocalInput(current.from));
      setTo(toLocalInput(current.to));
      setProblem(null);
    }
    setOpen(next);
  };

  const pick = (range: string) => {
    void navigate({ to: '.', search: (prev) => ({ ...prev, range: range as never, from: undefined, to: undefined }) });
    setOpen(false);
  };

  const applyCustom = (event: FormEvent) => {
    event.preventDefault();
    const start = fromLocalInput(from);
    const end = fromLocalInput(to);
    if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime()) || start >= end) {
      setProblem('The start must be before the end.');
      return;
    }
    // Said here, where it was typed, rather than as the API's refusal on every card of the page.
    if (end.getTime() - start.getTime() > MAX_RANGE_DAYS * 86_400_000) {
      setProblem(`The range can be at most ${MAX_RANGE_DAYS} days.`);
      return;
    }
    void navigate({
      to: '.',
      search: (prev) => ({ ...prev, range: undefined, from: start.toISOString(), to: end.toISOString() }),
    });
    setOpen(false);
  };

  const active = current.custom ? null : (search.range ?? DEFAULT_PRESET);
  return (
    <Popover open={open} onOpenChange={onOpenChange}>
      <PopoverTrigger asChild>
        <Button
          aria-label={`Time range: ${current.label}${difference ? ` ${difference.offset}` : ''}`}
          title={zoneNote}
        >
          <CalendarClock />
          <span className="max-w-64 truncate tabular">{current.label}</span>
          {difference && ' '}
          {difference && (
            <span data-zone-offset className="text-xs text-muted-foreground tabular max-md:hidden">
              {difference.offset}
            </span>
          )}
        </Button>
      </PopoverTrigger>
      <PopoverContent className="w-72" aria-label="Time range">
        <ul className="grid gap-px p-1" aria-label="Presets">
          {PRESETS.map((preset) => (
            <li key={preset.value}>
              <button
                type="button"
                onClick={() => pick(preset.value)}
                className={cn(
                  'flex h-8 w-full items-center gap-2 rounded-sm px-2 text-left text-sm outline-none hover:bg-muted focus-visible:bg-muted',
                  currentItemBar.focused,
                )}
              >
                <span className="flex-1">{preset.label}</span>
                <span className="font-mono text-xs text-muted-foreground">{preset.value}</span>
                {active === preset.value && <Check className="size-4 text-accent" aria-label="selected" />}
              </button>
            </li>
          ))}
        </ul>
        <form onSubmit={applyCustom} className="grid gap-2 border-t p-3">
          <div className="text-xs font-medium">Custom range</div>
          {difference && <p className="text-xs text-muted-foreground">{zoneNote}</p>}
          <div className="grid gap-1">
            <Label htmlFor="range-from">From</Label>
            <Input
              id="range-from"
              type="datetime-local"
              value={from}
              onChange={(e) => setFrom(e.target.value)}
              required
            />
          </div>
          <div className="grid gap-1">
            <Label htmlFor="range-to">To</Label>
            <Input id="range-to" type="datetime-local" value={to} onChange={(e) => setTo(e.target.value)} required />
          </div>
          {problem && (
            <p role="alert" className="text-xs text-danger">
              {problem}
            </p>
          )}
          <Button type="submit" variant="primary" size="sm" className="justify-self-end">
            Apply
          </Button>
        </form>
      </PopoverContent>
    </Popover>
  );
}
