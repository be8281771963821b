/**
 * JavaScript source maps: checking uploaded maps, decoding them into lookup tables
 * (@jridgewell/trace-mapping), and rewriting Chrome/V8, Firefox and Safari stack traces to their
 * original positions. Pure: the caller supplies the map text and a resolver per frame.
 */
export {
  displaySource,
  inspectSourceMap,
  normalizeJsDebugId,
  SOURCE_MAP_LIMITS,
  SourceMapError,
  SourceMapTable,
} from './map.js';
export type { OriginalPosition, SourceContext, SourceMapInfo } from './map.js';
export { MAX_CONTEXT_FRAMES, MAX_JS_FRAMES, parseJsTrace, symbolicateJs } from './trace.js';
export type { JsFrame, JsSymbolication, JsTrace, MappedFrame, SourceMapResolver } from './trace.js';
export { MAX_SCRIPT_PATH, scriptPath, uploadedPath } from './paths.js';
