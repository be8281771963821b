/**
 * ELF symbols that start the two instruction sections of a Dart AOT
 * snapshot. Non-symbolic Dart frames print their offset from one of these
 * (`_kDartIsolateSnapshotInstructions+0x1e1dab`), so they anchor pc lookup.
 */
export const DART_INSTRUCTIONS_SYMBOLS = ['_kDartVmSnapshotInstructions', '_kDartIsolateSnapshotInstructions'] as const;
