import { Select } from '@/components/ui/input';
import { WIDGET_TYPES, type WidgetType } from './types';

/** The widget kinds, for the widget dialog and the explorer's "Add to dashboard". */
export function WidgetTypeSelect({
  id,
  value,
  onChange,
}: {
  id: string;
  value: WidgetType;
  onChange: (type: WidgetType) => void;
}) {
  return (
    <Select id={id} value={value} onChange={(e) => onChange(e.target.value as WidgetType)} options={WIDGET_TYPES} />
  );
}
