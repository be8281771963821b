/**
 * The one error type the OTLP decoders throw. Its message names what was wrong and where, and is
 * meant to be sent back to the exporter (the route answers 400 with it).
 */
export class OtlpDecodeError extends Error {
  override readonly name = 'OtlpDecodeError';
}
