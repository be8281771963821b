import { Fragment, type ReactNode } from 'react';

/** A dotted key (`http.response.status_code`) with a break opportunity after each dot, so a narrow column wraps it at a dot. */
function BreakableKey({ text }: { text: string }): ReactNode {
  const parts = text.split('.');
  return parts.map((part, index) => (
    <Fragment key={index}>
      {part}
      {index < parts.length - 1 && (
        <>
          .<wbr />
        </>
      )}
    </Fragment>
  ));
}

/**
 * Key/value attributes of a span, an occurrence or an entity: keys sorted, values monospace.
 * One rule between rows, inset to the text; a long value wraps inside its cell (at spaces first,
 * anywhere in an unbroken string), and each row's key and value share their first baseline.
 */
export function AttributeTable({ attributes, label }: { attributes: Record<string, string>; label: string }) {
  const entries = Object.entries(attributes).sort(([a], [b]) => a.localeCompare(b));
  if (entries.length === 0) return <p className="px-4 text-xs text-muted-foreground">No attributes.</p>;
  return (
    <div className="px-4">
      <table aria-label={label} className="w-full table-fixed border-collapse text-xs">
        <tbody className="divide-y">
          {entries.map(([key, value]) => (
            <tr key={key} data-attribute={key}>
              <th
                scope="row"
                className="w-2/5 py-1.5 pr-3 text-left align-baseline leading-4 font-normal wrap-break-word text-muted-foreground"
              >
                <BreakableKey text={key} />
              </th>
              <td className="py-1.5 align-baseline font-mono leading-4 wrap-break-word whitespace-pre-wrap">{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
