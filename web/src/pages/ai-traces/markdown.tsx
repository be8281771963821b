/**
 * Message content as markdown, rendered safely: model output and prompts are untrusted text.
 * react-markdown builds React elements from the syntax tree (no innerHTML); raw HTML in the text
 * stays text (no rehype-raw); link targets keep only http, https and mailto, open in a new tab
 * with rel="noopener noreferrer"; images are not loaded (a remote image is a beacon) but shown as
 * a link to their address.
 */
import Markdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';

const SAFE_SCHEME = /^(https?:|mailto:)/i;

/** Absolute http(s)/mailto addresses only; anything else (javascript:, data:, relative) is dropped. */
export function safeUrl(url: string): string {
  const trimmed = url.trim();
  return SAFE_SCHEME.test(trimmed) ? trimmed : '';
}

const components: Components = {
  a: ({ href, children }) =>
    href ? (
      <a href={href} target="_blank" rel="noopener noreferrer" className="text-accent underline underline-offset-2">
        {children}
      </a>
    ) : (
      <span className="underline decoration-dotted">{children}</span>
    ),
  img: ({ src, alt }) =>
    typeof src === 'string' && src ? (
      <a href={src} target="_blank" rel="noopener noreferrer" className="text-accent underline underline-offset-2">
        [image{alt ? `: ${alt}` : ''}]
      </a>
    ) : (
      <span>[image{alt ? `: ${alt}` : ''}]</span>
    ),
  p: ({ children }) => <p className="my-1.5 first:mt-0 last:mb-0">{children}</p>,
  ul: ({ children }) => <ul className="my-1.5 list-disc pl-5">{children}</ul>,
  ol: ({ children }) => <ol className="my-1.5 list-decimal pl-5">{children}</ol>,
  h1: ({ children }) => <p className="mt-2 mb-1 font-semibold">{children}</p>,
  h2: ({ children }) => <p className="mt-2 mb-1 font-semibold">{children}</p>,
  h3: ({ children }) => <p className="mt-2 mb-1 font-semibold">{children}</p>,
  blockquote: ({ children }) => (
    <blockquote className="my-1.5 border-l-2 pl-3 text-muted-foreground">{children}</blockquote>
  ),
  pre: ({ children }) => (
    <pre className="my-2 overflow-x-auto rounded-md border bg-muted px-3 py-2 font-mono text-xs leading-5">
      {children}
    </pre>
  ),
  code: ({ children, className }) => (
    <code className={className ? `font-mono text-xs ${className}` : 'rounded bg-muted px-1 font-mono text-xs'}>
      {children}
    </code>
  ),
  table: ({ children }) => (
    <div className="my-2 overflow-x-auto">
      <table className="border-collapse text-xs">{children}</table>
    </div>
  ),
  th: ({ children }) => <th className="border px-2 py-1 text-left font-medium">{children}</th>,
  td: ({ children }) => <td className="border px-2 py-1">{children}</td>,
};

export function MarkdownText({ text }: { text: string }) {
  return (
    <div className="text-sm leading-6 break-words [&_pre_code]:bg-transparent [&_pre_code]:p-0">
      <Markdown remarkPlugins={[remarkGfm]} urlTransform={safeUrl} components={components}>
        {text}
      </Markdown>
    </div>
  );
}
