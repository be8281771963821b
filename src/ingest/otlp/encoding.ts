export type OtlpEncoding = 'protobuf' | 'json';

/** The spec: `application/x-protobuf` is protobuf; any other content type is read as OTLP/JSON. */
export function otlpEncodingOf(contentType: string | undefined): OtlpEncoding {
  const mediaType = contentType?.split(';', 1)[0]?.trim().toLowerCase();
  return mediaType === 'application/x-protobuf' ? 'protobuf' : 'json';
}
