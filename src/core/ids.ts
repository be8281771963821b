/** Identifier formats shared by every layer. */

/** A UUID in its text form (any version), as the metadata database issues ids. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
