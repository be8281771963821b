/** Key/value attributes of a span, an occurrence or an entity: keys sorted, values monospace and wrapping. */
export function AttributeTable({ attributes, label }: { attributes: Record<string, string>; label: string }) {
  const entries = Object.entries(attributes).sort(([a], [b]) => a.localeCompare(b));
  if (entries.length === 0) return <p className="px-4 text-xs text-muted-foreground">No attributes.</p>;
  return (
    <table aria-label={label} className="w-full table-fixed border-collapse text-xs">
      <tbody>
        {entries.map(([key, value]) => (
          <tr key={key} className="border-t align-top first:border-t-0">
            <th scope="row" className="w-2/5 px-4 py-1 text-left font-normal break-all text-muted-foreground">
              {key}
            </th>
            <td className="py-1 pr-4 font-mono break-all whitespace-pre-wrap">{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
