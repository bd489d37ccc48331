// Prints the plain closing line CI reads ("N passed, N failed"), whatever jest's own format.
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const line = `tests: ${results.numPassedTests} passed, ${results.numFailedTests} failed` +
      (skipped ? `, ${skipped} skipped` : '');
    process.stdout.write(`\n${line}\n`);
  }
}
module.exports = SummaryReporter;
