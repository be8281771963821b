/** iOS frame offsets are relative to the image's mach header, i.e. to the `__TEXT` segment's vmaddr. */
export const TEXT_SEGMENT_ANCHOR = '__TEXT';
