import { DART_FRAME } from '../dart/trace.js';
import { IOS_FRAME } from '../ios/trace.js';

/** Which symbolicator a trace needs, from its frame lines; null for a symbolic or frameless trace. */
export function detectTraceFlavor(text: string): 'dart' | 'ios' | null {
  let sawIosFrame = false;
  for (const line of text.split('\n')) {
    if (DART_FRAME.test(line)) return 'dart';
    sawIosFrame ||= IOS_FRAME.test(line);
  }
  return sawIosFrame ? 'ios' : null;
}
