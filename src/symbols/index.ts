/**
 * Debug-symbol core: identification of uploaded symbol files, DWARF lookup
 * tables for Dart `.symbols` ELF files and iOS dSYM Mach-O files, and
 * symbolication of Flutter and iOS crash traces, R8/ProGuard mapping files and
 * the retrace of Java/Kotlin traces (hand-written: no maintained JavaScript
 * retrace library exists). Pure: no I/O, no framework;
 * the caller supplies bytes through ByteSource and tables through a resolver.
 *
 * The ELF, Mach-O and DWARF readers are hand-written: Node has no maintained
 * DWARF library.
 */
export { bytesSource, sliceSource, type ByteSource } from './bytes/source.js';
export { SymbolFileError, type SymbolFileErrorCode } from './errors.js';
export { archFromFileName, normalizeArch, normalizeDebugId, type DartArch } from './ids.js';
export { identifySymbolFile, type MachoSliceIdentity, type SymbolFileIdentity } from './identify.js';
export { buildLookupTable, type BuildOptions } from './build.js';
export { LookupTable, type SymbolFrame, type TableMeta } from './table/lookup-table.js';
export { deserializeTable, serializeTable, TABLE_FORMAT_VERSION } from './table/serialize.js';
export { DART_FRAME_CAP, parseDartTrace, symbolicateDart, type DartTrace, type DartTraceFrame } from './dart/trace.js';
export { parseIosTrace, symbolicateIos, type IosTrace, type IosTraceFrame } from './ios/trace.js';
export { detectTraceFlavor } from './trace/flavor.js';
export type { TableResolver } from './trace/text.js';
export { MAX_MAPPING_LINE, RetraceMapping, type MappedFrame, type MappingHeader } from './proguard/mapping.js';
export { MAX_RETRACED_FRAMES, isJavaFrame, parseJavaTrace, retraceJava, type JavaTrace } from './proguard/trace.js';
export * from './sourcemap/index.js';
