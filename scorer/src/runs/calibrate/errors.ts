/** A calibration input problem (unknown run, unreadable review file): exit code 2 with this message. */
export class CalibrationError extends Error {
  override readonly name = "CalibrationError";
}
