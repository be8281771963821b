/**
 * Why a debug-symbol file (or a cached lookup table) could not be read.
 * The upload route answers 422 for every code; the code only sharpens logs.
 */
export type SymbolFileErrorCode =
  /** A structure points past the end of the file or section. */
  | 'truncated'
  /** A structure is self-contradictory (bad magic inside, impossible size, unknown form). */
  | 'corrupt'
  /** Well-formed but outside what the reader handles (big-endian, compressed sections, no DWARF). */
  | 'unsupported';

export class SymbolFileError extends Error {
  override readonly name = 'SymbolFileError';
  readonly code: SymbolFileErrorCode;

  constructor(code: SymbolFileErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

export function truncated(message: string): SymbolFileError {
  return new SymbolFileError('truncated', message);
}

export function corrupt(message: string): SymbolFileError {
  return new SymbolFileError('corrupt', message);
}

export function unsupported(message: string): SymbolFileError {
  return new SymbolFileError('unsupported', message);
}
