import { isDartFrame } from '../dart/trace.js';
import { isIosFrame } from '../ios/trace.js';

/** Which symbolicator a trace needs, from its frame lines; null for a symbolic or frameless trace. */
export function detectTraceFlavor(text: string): 'dart' | 'ios' | null {
  let sawIosFrame = false;
  for (const line of text.split('\n')) {
    if (isDartFrame(line)) return 'dart';
    sawIosFrame ||= isIosFrame(line);
  }
  return sawIosFrame ? 'ios' : null;
}
