/** A workflow bundler's logger for tests: quiet, but for warnings and errors (webpack's problems). */
export const quietBundleLogger = {
  log: () => undefined,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: (message: string) => process.stderr.write(`[bundle] ${message}\n`),
  error: (message: string) => process.stderr.write(`[bundle] ${message}\n`),
};
